import { describe, expect, it } from "vitest";
import { isTestPath } from "../../src/core/languages.js";
import { frameLabel, isDocPath, parseTask, withinRepository } from "../../src/query/task.js";
import type { TaskQuery } from "../../src/query/types.js";
import { PathIndex } from "../../src/store/path-index.js";

describe("parseTask", () => {
  // Before the patterns were made linear, one 200,000-character token kept the parser busy for
  // minutes (0.55 s at 10,000 characters, 7.3 s at 40,000): these finish within the test timeout.
  it("reads a task of one 200,000-character token, and still finds the references around it", () => {
    for (const blob of ["a".repeat(200_000), "a/".repeat(100_000), "a.".repeat(100_000), "x:".repeat(100_000), 'File "'.repeat(40_000)]) {
      const task = parseTask(`Crash in shop/cart.py:12 ${blob} see \`RetryPolicy.next_delay\``);
      expect(task.frames.map((f) => [f.path, f.line])).toEqual([["shop/cart.py", 12]]);
      expect(task.dotted).toContain("RetryPolicy.next_delay");
    }
  });

  it("reads a task of 200,000 characters of random words and paths", () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const words: string[] = [];
    for (let length = 0; length < 200_000; ) {
      const word = random() < 0.05 ? `pkg${Math.floor(random() * 100)}/mod_${Math.floor(random() * 100)}.py` : Math.floor(random() * 1e12).toString(36);
      words.push(word);
      length += word.length + 1;
    }
    words.push("src/checkout/coupon.ts");
    const task = parseTask(words.join(random() < 2 ? " " : "\n"));
    expect(task.paths).toContain("src/checkout/coupon.ts");
    expect(task.paths.length).toBeGreaterThan(100);
  });

  it("reads a log of 20,000 distinct file:line mentions, each once, in order", () => {
    const task = parseTask(Array.from({ length: 20_000 }, (_, i) => `f${i}.py:${i + 1}`).join("\n"));
    expect(task.frames).toHaveLength(20_000);
    expect(task.frames[19_999]).toMatchObject({ path: "f19999.py", line: 20_000, depth: 1 });
  });

  it("takes a path from a URL, and no drive letter from the middle of a word", () => {
    const task = parseTask("See https://github.com/acme/shop/blob/main/src/shop/cart.py and logs:multipart.py:604");
    expect(task.paths).toContain("/github.com/acme/shop/blob/main/src/shop/cart.py");
    expect(task.frames.map((f) => f.path)).toEqual(["multipart.py"]);
  });

  it("reads Python traceback frames in order, with line and function, the last innermost", () => {
    const task = parseTask(
      'Traceback (most recent call last):\n  File "/home/me/proj/shop/cart.py", line 12, in add\n    total()\n  File "/usr/lib/python3/site-packages/shop/pricing.py", line 40, in total\nKeyError: 1',
    );
    expect(task.frames.map((f) => [f.path, f.line, f.name, f.depth])).toEqual([
      ["/home/me/proj/shop/cart.py", 12, "add", 0.5],
      ["/usr/lib/python3/site-packages/shop/pricing.py", 40, "total", 1],
    ]);
    expect(task.frames.every((f) => f.python)).toBe(true);
  });

  it("reads IPython's older tracebacks: the file and function on a line, the failing line under an arrow", () => {
    const task = parseTask(
      [
        "KeyError                                  Traceback (most recent call last)",
        "~/envs/py3.9/lib/python3.8/site-packages/seaborn/_core.py in _lookup_single(self, key)",
        "    143             # Use a value that's in the original data vector",
        "--> 144             value = self.lookup_table[key]",
        "    145         except KeyError:",
        "",
        "<ipython-input-3-46dd21e9c95a> in <module>",
        "----> 4 g.map(sns.scatterplot, hue=iris['species'])",
        "",
        "C:\\Python38\\lib\\site-packages\\seaborn\\axisgrid.py in <lambda>(x)",
        "   1264         indices = zip(row_indices.flat, col_indices.flat)",
        "-> 1265         self._map_bivariate(func, indices, **kwargs)",
      ].join("\n"),
    );
    expect(task.frames.map((f) => [f.path, f.line, f.name, f.depth])).toEqual([
      ["~/envs/py3.9/lib/python3.8/site-packages/seaborn/_core.py", 144, "_lookup_single", 0.5],
      ["C:\\Python38\\lib\\site-packages\\seaborn\\axisgrid.py", 1265, "<lambda>", 1],
    ]);
    expect(task.frames.every((f) => f.python)).toBe(true);
    // A frame's file is that frame, not a path written besides.
    expect(task.paths).toEqual([]);
  });

  it("reads no line for an IPython frame printed without source, and never the next frame's", () => {
    const task = parseTask(
      [
        "~/envs/lib/python3.8/site-packages/pandas/_libs/index.pyx in pandas._libs.index.IndexEngine.get_loc()",
        "",
        "~/proj/shop/core.py in inner(x)",
        "     10     y = x + 1",
        "---> 11     return table[y]",
      ].join("\n"),
    );
    expect(task.frames.map((f) => [f.path, f.line, f.name])).toEqual([["~/proj/shop/core.py", 11, "inner"]]);
  });

  it("reads JavaScript stack frames and file:line mentions", () => {
    const task = parseTask("TypeError: x is undefined\n    at applyCoupon (src/checkout/coupon.ts:41:7)\nSee also lib/util.js:9");
    expect(task.frames.map((f) => [f.path, f.line])).toEqual([
      ["src/checkout/coupon.ts", 41],
      ["lib/util.js", 9],
    ]);
    expect(task.frames[0]!.name).toBe("applyCoupon");
    // JavaScript prints the innermost frame first.
    expect(task.frames.map((f) => f.depth)).toEqual([1, 0.5]);
    expect(task.frames.some((f) => f.python)).toBe(false);
  });

  it("reads JVM stack frames as package paths, the first innermost, each file once", () => {
    const task = parseTask(
      [
        "java.lang.NullPointerException: null",
        "\tat org.apache.dubbo.registry.integration.RegistryProtocol$ExporterChangeableWrapper.unexport(RegistryProtocol.java:912)",
        "\tat org.apache.dubbo.config.ServiceConfig.<init>(ServiceConfig.java:192) ~[dubbo-3.1.6.jar:3.1.6]",
        "\tat java.base/java.lang.Thread.run(Thread.java:829)",
        "\tat com.acme.cart.CartKt.total(Cart.kt:7)",
      ].join("\n"),
    );
    expect(task.frames.map((f) => [f.path, f.line, f.name, f.depth])).toEqual([
      ["org/apache/dubbo/registry/integration/RegistryProtocol.java", 912, "ExporterChangeableWrapper.unexport", 1],
      ["org/apache/dubbo/config/ServiceConfig.java", 192, "ServiceConfig.<init>", 0.75],
      ["java/lang/Thread.java", 829, "Thread.run", 0.5],
      ["com/acme/cart/Cart.kt", 7, "CartKt.total", 0.25],
    ]);
    // `(RegistryProtocol.java:912)` is the frame again, not a path or a mention of its own.
    expect(task.paths).toEqual([]);
  });

  it("orders a Python traceback's frames and pytest's .py mentions the Python way, the rest the other way", () => {
    const task = parseTask(
      ['  File "pandas/_libs/lib.pyx", line 5, in f', '  File "pandas/core/frame.py", line 9, in g', "pandas/core/series.py:40: in h", "src/ext.c:3: error: boom", "src/ext.h:7: note: here"].join("\n"),
    );
    expect(task.frames.map((f) => [f.path, f.depth])).toEqual([
      ["pandas/_libs/lib.pyx", 1 / 3],
      ["pandas/core/frame.py", 2 / 3],
      ["pandas/core/series.py", 1],
      ["src/ext.c", 1],
      ["src/ext.h", 0.5],
    ]);
  });

  it("labels a frame for evidence: file, line when known, function", () => {
    expect(frameLabel({ path: "/home/u/shop/cart.py", line: 12, name: "checkout", depth: 1 })).toBe("cart.py:12 in checkout");
    expect(frameLabel({ path: "C:\\proj\\shop\\cart.py", line: 0, name: "", depth: 1 })).toBe("cart.py");
  });

  it("reads Rust panics, Go panics and compiler errors as file:line mentions, the first innermost", () => {
    const task = parseTask(
      [
        "thread 'main' panicked at src/bytes_mut.rs:1123:9:",
        "goroutine 1 [running]:\nmain.run()\n\t/home/me/go/src/acme/cmd/run.go:42 +0x1d",
        "include/fmt/core.h:1234:5: error: no matching function for call to 'format'",
      ].join("\n"),
    );
    expect(task.frames.map((f) => [f.path, f.line, f.depth])).toEqual([
      ["src/bytes_mut.rs", 1123, 1],
      ["/home/me/go/src/acme/cmd/run.go", 42, 2 / 3],
      ["include/fmt/core.h", 1234, 1 / 3],
    ]);
  });

  it("finds file paths, dotted module paths and code identifiers", () => {
    const task = parseTask("The bug is in shop/payments/retry.py: `RetryPolicy.next_delay` and django.db.models.query call charge_card() e.g. twice.");
    expect(task.paths).toEqual(["shop/payments/retry.py"]);
    expect(task.dotted).toEqual(["RetryPolicy.next_delay", "django.db.models.query"]);
    expect(task.identifiers).toEqual(expect.arrayContaining(["RetryPolicy", "next_delay"]));
    // A called name is a code word, not an explicit reference.
    expect(task.identifiers).not.toContain("charge_card");
    expect(task.codeWords).toEqual(expect.arrayContaining(["RetryPolicy", "next_delay", "charge_card"]));
    expect(task.dotted).not.toContain("e.g");
  });

  it("keeps content terms without stopwords, weighting repeats sublinearly", () => {
    const task = parseTask("Bug report\nThe retry is failing; the retry retries the card when it should not");
    expect(task.terms.has("the")).toBe(false);
    expect(task.terms.has("should")).toBe(false);
    expect(task.terms.get("retry")).toBeCloseTo(1 + Math.log(2));
    expect(task.terms.get("card")).toBe(1);
  });

  it("leaves pasted package listings out of the terms", () => {
    const task = parseTask("xfail marker ignored\n```\n$ pip list\nPackage    Version\naiohttp    3.6.2\nhypothesis 5.10.4\npluggy==0.13.1\n```\nThe xfail marker added at runtime is ignored.");
    expect(task.terms.has("aiohttp")).toBe(false);
    expect(task.terms.has("hypothesis")).toBe(false);
    expect(task.terms.has("pluggy")).toBe(false);
    expect(task.terms.has("xfail")).toBe(true);
  });

  it("leaves pasted version reports (show_versions) out of the terms, not a config the task is about", () => {
    const report = [
      "commit: None", "python: 3.8.3 (default, Jul  2 2020, 11:26:31) ", "[Clang 10.0.0 ]", "python-bits: 64", "OS: Darwin", "machine: x86_64",
      "LANG: en_US.UTF-8", "libhdf5: 1.10.6", "libnetcdf: None", "", "xarray: 0.16.0", "pandas: 1.0.5", "numpy: 1.18.5", "netCDF4: None", "dask: 2.20.0",
      "setuptools: 49.2.0.post20200714", "sphinx: None",
    ];
    const task = parseTask(["Dataset.update loses chunks", "ds.update(other) computes the dask array.", "```", ...report, "```", "Is the chunking meant to be lost?"].join("\r\n"));
    for (const name of ["netcdf4", "libhdf5", "setuptools", "sphinx", "darwin", "pandas"]) expect(task.terms.has(name), name).toBe(false);
    for (const word of ["update", "chunks", "dask", "chunking"]) expect(task.terms.has(word), word).toBe(true);
    // `dask` is in the prose too: it stays, once.
    expect(task.terms.get("dask")).toBe(1);

    const config = ["retries: 3", "timeout: 30s", "backoff: exponential", "queue: payments", "workers: 4", "region: eu-west-1", "retry_on: declined", "log_level: debug"];
    const kept = parseTask(["The retry settings are ignored", ...config].join("\n"));
    for (const word of ["backoff", "exponential", "declined", "queue"]) expect(kept.terms.has(word), word).toBe(true);
  });

  it("weighs the title's terms twice", () => {
    const task = parseTask("Cart total wrong\nThe total of the cart is wrong when a coupon applies");
    expect(task.terms.get("cart")).toBeCloseTo(2 * (1 + Math.log(2)));
    expect(task.terms.get("coupon")).toBe(1);
  });

  it("tells tasks about tests and docs from others", () => {
    expect(parseTask("charge_card raises KeyError").aboutTests).toBe(false);
    expect(parseTask("the unit tests of tests/test_cart.py are flaky").aboutTests).toBe(true);
    expect(parseTask("Typo in the documentation of retries").aboutDocs).toBe(true);
    expect(parseTask("ReadTimeout from urllib3 is not wrapped").aboutVendored).toBe(false);
    expect(parseTask("Update the vendored urllib3").aboutVendored).toBe(true);
    expect(parseTask("see requests/packages/urllib3/response.py").aboutVendored).toBe(true);
    // A traceback through vendored code is not a task about it.
    expect(parseTask('Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/requests/packages/urllib3/response.py", line 9, in read\nReadTimeoutError').aboutVendored).toBe(false);
  });

  it("within a repository, counts a written path for tests, docs or vendored code only where it names such files there", () => {
    const paths = new PathIndex(["src/_pytest/mark/evaluate.py", "testing/test_skipping.py", "doc/index.rst", "tests/roots/test-ext/index.rst", "sympy/geometry/point.py", "pkg/_vendor/six.py", "src/shop/cart.py", "tests/fixtures/shop/cart.py", "tests/regrtest_data/a/b.py"]);
    const within = (text: string): TaskQuery => withinRepository(parseTask(text), (p) => paths.resolve(p));
    // A user's own repro files: about tests as read alone, not in a repository without them.
    const repro = "Running `pytest test_module_1.py test_module_2.py` skips both; see `cached_eval` in `_pytest/mark/evaluate.py`.";
    expect(parseTask(repro).aboutTests).toBe(true);
    expect(within(repro).aboutTests).toBe(false);
    // The repository's own test file, written: about tests.
    expect(within("testing/test_skipping.py fails on Windows").aboutTests).toBe(true);
    // A virtualenv named `test` holds the installed package, not its tests.
    const venv = "~/.virtualenvs/test/lib/python3.6/site-packages/sympy/geometry/point.py raises GeometryError";
    expect(parseTask(venv).aboutTests).toBe(true);
    expect(within(venv).aboutTests).toBe(false);
    // Written as an IPython frame, it is a frame: no path of the task's at all.
    expect(parseTask(venv.replace(" raises", " in __add__(self, other)\n--> 219")).aboutTests).toBe(false);
    // A bare name the repository has among its tests and its docs: not about tests; every one is a doc.
    const bare = within("my index.rst renders the toctree twice");
    expect(bare.aboutTests).toBe(false);
    expect(bare.aboutDocs).toBe(true);
    // An installed file the repository has both as its source and among its test fixtures: not about tests.
    const installed = "KeyError in ~/.virtualenvs/test/lib/python3.9/site-packages/shop/cart.py";
    expect(parseTask(installed).aboutTests).toBe(true);
    expect(within(installed).aboutTests).toBe(false);
    expect(within("pkg/_vendor/six.py is outdated").aboutVendored).toBe(true);
    // The words count outside the paths: a user's conftest.py or fixtures.py is a path, decided as one.
    expect(parseTask("/home/me/app/conftest.py breaks collection").aboutTests).toBe(true);
    expect(within("/home/me/app/conftest.py breaks collection").aboutTests).toBe(false);
    expect(within("KeyError in /home/me/app/fixtures.py").aboutTests).toBe(false);
    // A user's `a/b.py` that only a test fixture of the repository is named like: not about tests.
    expect(within("`pylint a` fails when a/a.py and a/b.py are present").aboutTests).toBe(false);
    // Words still say it, whatever the paths.
    expect(within("the unit tests of test_module_1.py are flaky").aboutTests).toBe(true);
    expect(within("Typo in the documentation of retries").aboutDocs).toBe(true);
  });
});

describe("isTestPath and isDocPath", () => {
  it("recognise test files across languages", () => {
    for (const p of ["tests/test_cart.py", "pkg/test_x.py", "src/cart.test.ts", "a/b_test.go", "src/__tests__/x.js", "conftest.py", "testing/helpers.py", "src/FooTest.java", "Sources/KitTests/ParserTests.swift", "app/src/ParserTest.kt"]) {
      expect(isTestPath(p), p).toBe(true);
    }
    for (const p of ["src/_pytest/python.py", "shop/contest.py", "src/latest.ts", "attestation/x.go", "src/Latest.java", "Sources/Kit/Contest.swift"]) expect(isTestPath(p), p).toBe(false);
  });

  it("recognise documentation", () => {
    expect(isDocPath("docs/conf.py")).toBe(true);
    expect(isDocPath("README.md")).toBe(true);
    expect(isDocPath("tox.ini")).toBe(true);
    expect(isDocPath("setup.cfg")).toBe(true);
    expect(isDocPath("core/pom.xml")).toBe(true);
    expect(isDocPath("src/main/resources/applicationContext.XML")).toBe(true);
    expect(isDocPath("src/docstring.py")).toBe(false);
  });
});
