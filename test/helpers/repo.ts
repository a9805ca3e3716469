import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: tmpdir(), // no user config leaks in
};

/** A real folder (optionally a git repository) in a temp dir. */
export class TempRepo {
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /** Creates a folder with `files`; with `git`, also `git init` and a first commit. */
  static create(files: Record<string, string | Buffer> = {}, options: { git?: boolean; message?: string } = {}): TempRepo {
    const repo = new TempRepo(mkdtempSync(join(tmpdir(), "ctxsmith-test-")));
    repo.write(files);
    if (options.git) {
      repo.git("init", "-q", "-b", "main");
      if (Object.keys(files).length > 0) repo.commitAll(options.message ?? "initial commit");
    }
    return repo;
  }

  path(rel: string): string {
    return join(this.root, rel);
  }

  write(files: Record<string, string | Buffer>): void {
    for (const [rel, content] of Object.entries(files)) {
      const abs = this.path(rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  }

  remove(rel: string): void {
    rmSync(this.path(rel), { recursive: true, force: true });
  }

  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.root, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" });
  }

  /** Stages everything and commits; returns the new HEAD. */
  commitAll(message: string): string {
    this.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
    return this.git("rev-parse", "HEAD").trim();
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
