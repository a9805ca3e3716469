import { useEffect, useRef } from "preact/hooks";
import { html } from "./html.js";

/**
 * Lines of code with their numbers. `highlight` marks a range; `scrollTo` brings a line into view
 * when the block is shown.
 */
export function Code(props: { text: string; first: number; highlight?: [number, number] | null; scrollTo?: number | null; onLine?: (line: number) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const lines = props.text.split("\n");
  useEffect(() => {
    if (props.scrollTo == null || !ref.current) return;
    const row = ref.current.querySelector<HTMLElement>(`[data-line="${props.scrollTo}"]`);
    row?.scrollIntoView({ block: "center" });
  }, [props.scrollTo, props.text]);
  const [from, to] = props.highlight ?? [0, -1];
  return html`<div class="code" ref=${ref} role="region" aria-label="code">
    ${lines.map((line, i) => {
      const n = props.first + i;
      return html`<div class=${`code-line${n >= from && n <= to ? " hl" : ""}`} data-line=${n} key=${n}>
        <span class="ln" aria-hidden="true">${n}</span><span class="src">${line || " "}</span>
      </div>`;
    })}
  </div>`;
}
