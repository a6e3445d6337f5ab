import type { Deps } from "../../api/deps";
import { standing } from "../../api/routes/me";
import { html } from "../html";
import { formatTime } from "../layout";
import type { Session } from "../session";

/** Plan, burst and both quota windows: the numbers `GET /v1/me` gives a live and a test key. */
export async function overviewPage(deps: Deps, session: Session) {
  const [live, test] = [await standing(deps, session.org, true), await standing(deps, session.org, false)];
  const quota = (title: string, mode: "live" | "test", s: typeof live) => {
    const share = s.quota.limit ? Math.min(100, Math.round((s.quota.used / s.quota.limit) * 100)) : 0;
    return html`<div class="card stat" data-quota="${mode}"><div class="label">${title}</div>
<div class="value"><span class="used">${s.quota.used}</span> <span class="muted">/ ${s.quota.limit}</span></div>
<div class="bar"><span class="w${Math.round(share / 5) * 5}"></span></div>
<div class="note">${s.quota.remaining} left · resets ${formatTime(s.quota.resetsAt)}</div>
<div class="note">${s.rateLimitPerMinute} requests per minute</div></div>`;
  };
  return html`<h1>Overview</h1><p class="lead">${session.org.name} · plan <strong>${live.plan.name}</strong> · ruleset channel <strong>${session.org.rulesetChannel}</strong></p>
<div class="grid">${quota("Live documents this window", "live", live)}${quota("Sandbox calls this month", "test", test)}</div>
<div class="card"><h2>Getting started</h2><p>Create a key under <a href="/dashboard/keys">API keys</a>, or try every operation in the <a href="/dashboard/playground">playground</a> (it starts in test mode and spends the sandbox allowance, exactly as a test key would).</p>
<p class="muted">The interface is described at <a href="/docs">/docs</a> and <a href="/openapi.json">/openapi.json</a>.</p></div>`;
}
