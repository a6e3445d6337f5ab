import { DomainError } from "../errors/domain-error";
import { ApiError } from "./errors";

/** The generate/parse domain decides its refusals; HTTP only carries them. */
export async function carryDomainErrors<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new ApiError(error.status, error.code, error.message, error.details);
    throw error;
  }
}
