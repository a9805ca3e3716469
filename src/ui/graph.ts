import { html } from "./html.js";

/**
 * The dependency graph drawn in layers: a repository sits below everything that depends on it, so
 * arrows ("depends on") point down. Repositories with no relation sit in the top row.
 */
export function DependencyGraph(props: { repos: string[]; edges: Array<[string, string]> }) {
  const depth = new Map<string, number>(props.repos.map((r) => [r, 0]));
  // Longest path from the dependents: the registry refuses cycles, so this settles in |repos| rounds.
  for (let round = 0; round < props.repos.length; round++) {
    for (const [from, to] of props.edges) depth.set(to, Math.max(depth.get(to) ?? 0, (depth.get(from) ?? 0) + 1));
  }
  const layers: string[][] = [];
  for (const repo of props.repos) (layers[depth.get(repo) ?? 0] ??= []).push(repo);
  const W = 150;
  const H = 38;
  const GAP_X = 40;
  const GAP_Y = 60;
  const width = Math.max(1, ...layers.map((l) => l?.length ?? 0)) * (W + GAP_X) + GAP_X;
  const height = layers.length * (H + GAP_Y) + GAP_Y / 2;
  const pos = new Map<string, { x: number; y: number }>();
  layers.forEach((layer, row) => {
    const offset = (width - layer.length * (W + GAP_X) + GAP_X) / 2;
    layer.forEach((repo, i) => pos.set(repo, { x: offset + i * (W + GAP_X), y: GAP_Y / 2 + row * (H + GAP_Y) }));
  });
  if (props.repos.length === 0) return null;
  return html`<svg class="graph" viewBox=${`0 0 ${width} ${height}`} width=${width} height=${height} role="img" aria-label="dependency graph">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" /></marker></defs>
    ${props.edges.map(([from, to]) => {
      const a = pos.get(from);
      const b = pos.get(to);
      if (!a || !b) return null;
      return html`<g class="edge" key=${`${from}->${to}`}>
        <title>${from} depends on ${to}</title>
        <line x1=${a.x + W / 2} y1=${a.y + H} x2=${b.x + W / 2} y2=${b.y} marker-end="url(#arrow)" />
      </g>`;
    })}
    ${[...pos].map(
      ([repo, p]) => html`<g class="node" key=${repo} transform=${`translate(${p.x},${p.y})`}>
        <rect width=${W} height=${H} rx="8" />
        <text x=${W / 2} y=${H / 2 + 5} text-anchor="middle">${repo.length > 18 ? `${repo.slice(0, 17)}…` : repo}</text>
      </g>`,
    )}
  </svg>`;
}
