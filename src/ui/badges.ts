import type { Provenance } from "./api.js";
import { html } from "./html.js";

/** Why a repository takes part: primary, or expanded (direction, hops). */
export function ProvenanceBadge(props: { p: Provenance }) {
  const { p } = props;
  if (p.relation === "primary") return html`<span class="badge primary" title="named in the scope">primary</span>`;
  return html`<span class="badge expanded" title="reached along the dependency graph">${p.direction} · ${p.hops} hop${p.hops > 1 ? "s" : ""}</span>`;
}

export function Signals(props: { signals: readonly string[] }) {
  return html`<span class="signals">${props.signals.map((s) => html`<span class="chip" key=${s}>${s}</span>`)}</span>`;
}

/** An error as the API gave it, with what to do. */
export function ErrorBox(props: { error: { message: string; code?: string } | null }) {
  if (!props.error) return null;
  return html`<div class="error" role="alert"><strong>${props.error.code ?? "Error"}</strong> ${props.error.message}</div>`;
}
