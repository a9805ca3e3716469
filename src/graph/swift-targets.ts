/**
 * The Swift modules a SwiftPM manifest (`Package.swift`) declares with a folder of their own
 * (`.target(name: "Kit", path: "Sources/KitCore")`, `.executableTarget(name: "tool", path:
 * "Tools/tool")`). A target without `path:` lives in `Sources/<name>` (`Tests/<name>`,
 * `Plugins/<name>`), which the module rule finds by folder (see ModuleResolver.swiftModule).
 * Pure: the graph stage reads the file and hands its text here.
 */

import { dirOf, normalize, type SwiftModule } from "./modules.js";

/** A target declaration's head; its arguments run to the next one. */
const TARGET = /\.(?:target|executableTarget|testTarget|plugin|macro|systemLibrary)\s*\(/g;

/** Whether a path is a SwiftPM manifest (`Package.swift`, `Package@swift-5.9.swift`). */
export function isSwiftManifest(path: string): boolean {
  return /(?:^|\/)Package(?:@swift-[\d.]+)?\.swift$/.test(path);
}

/** The targets of one manifest with an explicit folder: its repository-relative root and the module's name. */
export function swiftTargetsOf(path: string, text: string): SwiftModule[] {
  const dir = dirOf(path);
  const source = text.replace(/\/\/[^\n]*/g, "");
  const heads = [...source.matchAll(TARGET)].map((m) => m.index);
  const out: SwiftModule[] = [];
  heads.forEach((start, i) => {
    const args = source.slice(start, heads[i + 1] ?? source.length);
    // `name:` comes first (Swift's argument order); a dependency's `.product(name:)` comes after it.
    const name = /\bname:\s*"([^"]+)"/.exec(args)?.[1];
    const folder = /\bpath:\s*"([^"]+)"/.exec(args)?.[1];
    if (!name || !folder || folder.startsWith("/")) return;
    const root = normalize(dir === "" ? folder : `${dir}/${folder}`);
    // The package's own folder, or one past the repository's root (`..`): no module folder of it.
    if (root === "" || root === "..") return;
    out.push({ root, name });
  });
  return out;
}
