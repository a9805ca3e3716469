import { TempRepo } from "./repo.js";

/**
 * A deterministic repository of `count` Python and TypeScript modules that call each other,
 * large enough that indexing takes a few seconds (for crash and concurrency tests).
 */
export function syntheticRepo(count: number, options: { git?: boolean } = {}): TempRepo {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const pkg = `pkg${i % 17}`;
    if (i % 3 === 0) {
      const fns = Array.from({ length: 12 }, (_, j) => `export function handler${i}_${j}(input: number): number {\n  // step ${j} of module ${i}\n  return helper${(i + j) % count}(input) + ${j};\n}\n`);
      files[`web/${pkg}/module_${i}.ts`] = `import { shared } from "../shared";\n\n${fns.join("\n")}`;
    } else {
      const fns = Array.from(
        { length: 12 },
        (_, j) =>
          `    def method_${j}(self, value):\n        """Compute step ${j} of service ${i}."""\n        result = compute_${(i * 7 + j) % count}(value)\n        return self.finish(result, ${j})\n`,
      );
      files[`app/${pkg}/service_${i}.py`] = `import os\nfrom app.shared import compute_${i}\n\n\nclass Service${i}:\n    """Service number ${i}."""\n\n${fns.join("\n")}`;
    }
  }
  const repo = TempRepo.create(files, { git: options.git ?? true, message: "Initial import of services" });
  if (options.git ?? true) {
    for (let c = 0; c < 5; c++) {
      const i = c * 3 + 1; // a Python service (i % 3 !== 0)
      repo.write({ [`app/pkg${i % 17}/service_${i}.py`]: `${files[`app/pkg${i % 17}/service_${i}.py`]}\n# fix ${c}\n` });
      repo.commitAll(`Fix bug ${c} in service ${i}`);
    }
  }
  return repo;
}
