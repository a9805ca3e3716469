import { describe, expect, it } from "vitest";
import { includeDirsOf, isBuildFile } from "../../src/graph/include-dirs.js";

describe("include folders from build files", () => {
  it("knows which files are build files", () => {
    expect(["CMakeLists.txt", "lib/CMakeLists.txt", "cmake/deps.cmake", "Makefile", "build/compile_commands.json", "rules.mk"].every(isBuildFile)).toBe(true);
    expect(["CMakeLists.txt.in", "src/make.c", "package.json"].some(isBuildFile)).toBe(false);
  });

  it("reads CMake's include_directories and target_include_directories, relative to the CMakeLists.txt", () => {
    const text = `
# include_directories(commented/out)
include_directories(include "third party/x" \${CMAKE_CURRENT_SOURCE_DIR}/gen)
target_include_directories(fmt PUBLIC
  $<BUILD_INTERFACE:\${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:include>
  PRIVATE \${PROJECT_SOURCE_DIR}/src \${UNKNOWN_VAR}/x /usr/include ../up ../../../outside)
`;
    expect(includeDirsOf("lib/CMakeLists.txt", text, "/repo")).toEqual(["lib/include", "lib/third party/x", "lib/gen", "src", "up"]);
    expect(includeDirsOf("CMakeLists.txt", "include_directories(.)\n", "/repo")).toEqual([""]);
  });

  it("reads -I flags of compile_commands.json, inside the repository only", () => {
    const db = JSON.stringify([
      { directory: "/repo/build", command: "cc -I../include -I /repo/lib -isystem /usr/include -o x.o -c ../x.c", file: "../x.c" },
      { directory: "/repo", arguments: ["c++", "-Iother", "-iquote", "src/q", "-c", "y.cc"], file: "y.cc" },
    ]);
    expect(includeDirsOf("build/compile_commands.json", db, "/repo")).toEqual(["include", "lib", "other", "src/q"]);
    expect(includeDirsOf("compile_commands.json", "not json", "/repo")).toEqual([]);
  });

  it("reads -I flags of a Makefile, relative to its folder, without make variables", () => {
    expect(includeDirsOf("programs/Makefile", "CPPFLAGS += -I../lib -I../lib/common -I$(LIBDIR)\n", "/repo")).toEqual(["lib", "lib/common"]);
  });
});
