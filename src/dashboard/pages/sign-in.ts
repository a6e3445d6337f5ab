import { html } from "../html";
import { signedOut } from "../layout";

export function signInPage(csrf: string, error: string | null) {
  return signedOut(
    "Sign in",
    html`<h2>Sign in</h2>${error ? html`<div class="flash bad">${error}</div>` : ""}
<form method="post" action="/dashboard/sign-in"><input type="hidden" name="csrf" value="${csrf}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<p class="muted">No user yet? <code>einvoice dashboard link --org ORG</code> prints a one-time sign-in link.</p>`,
  );
}

/** A link is used by a POST, so a mail scanner or a preview that fetches the URL cannot spend it. */
export function linkPage(csrf: string, token: string, error: string | null) {
  return signedOut(
    "Sign-in link",
    error
      ? html`<h2>Sign-in link</h2><div class="flash bad">${error}</div><p><a href="/dashboard/sign-in">Sign in with a password</a></p>`
      : html`<h2>Sign-in link</h2><p>This one-time link opens a dashboard session for its organization.</p>
<form method="post" action="/dashboard/link"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="token" value="${token}"><button type="submit">Continue</button></form>`,
  );
}

export function refusedPage(message: string) {
  return signedOut("Refused", html`<h2>Request refused</h2><div class="flash bad">${message}</div><p><a href="/dashboard">Back to the dashboard</a></p>`);
}
