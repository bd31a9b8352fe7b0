import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  activeInterpreter,
  PYTHON_EXTENSION_ID,
  pythonEnvironmentsApi,
  type ExtensionLike,
  type ExtensionRegistry,
  type PythonEnvironmentsApi,
} from "../src/pythonExtension";

function registryWith(extension: ExtensionLike | undefined): ExtensionRegistry & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    getExtension(id: string) {
      asked.push(id);
      return extension;
    },
  };
}

function environments(executable: string | undefined, envPath = "/ws/.venv"): PythonEnvironmentsApi & { resources: unknown[] } {
  const resources: unknown[] = [];
  return {
    resources,
    getActiveEnvironmentPath(resource?: unknown) {
      resources.push(resource);
      return { id: envPath, path: envPath };
    },
    async resolveEnvironment(environment) {
      assert.deepEqual(environment, { id: envPath, path: envPath });
      return executable === undefined ? undefined : { executable: { uri: { fsPath: executable } } };
    },
  };
}

describe("pythonEnvironmentsApi", () => {
  it("is undefined when the Python extension is not installed", async () => {
    const registry = registryWith(undefined);
    assert.equal(await pythonEnvironmentsApi(registry), undefined);
    assert.deepEqual(registry.asked, [PYTHON_EXTENSION_ID]);
  });

  it("activates the extension when it is not active yet and uses what activate returns", async () => {
    const api = environments("/ws/.venv/bin/python");
    let activated = 0;
    const registry = registryWith({
      isActive: false,
      exports: undefined,
      activate: async () => {
        activated += 1;
        return { environments: api };
      },
    });
    assert.equal(await pythonEnvironmentsApi(registry), api);
    assert.equal(activated, 1);
  });

  it("uses the exports of an active extension without activating it again", async () => {
    const api = environments("/x");
    const registry = registryWith({
      isActive: true,
      exports: { environments: api },
      activate: () => Promise.reject(new Error("must not activate")),
    });
    assert.equal(await pythonEnvironmentsApi(registry), api);
  });

  it("is undefined when activation throws or the API is too old to have environments", async () => {
    const failing = registryWith({ isActive: false, exports: undefined, activate: () => Promise.reject(new Error("boom")) });
    assert.equal(await pythonEnvironmentsApi(failing), undefined);
    const old = registryWith({ isActive: true, exports: { settings: {} }, activate: async () => undefined });
    assert.equal(await pythonEnvironmentsApi(old), undefined);
    const partial = registryWith({ isActive: true, exports: { environments: { resolveEnvironment() {} } }, activate: async () => undefined });
    assert.equal(await pythonEnvironmentsApi(partial), undefined);
  });
});

describe("activeInterpreter", () => {
  it("returns the resolved executable of the active environment for the resource", async () => {
    const api = environments("/ws/.venv/bin/python");
    assert.equal(await activeInterpreter(api, "folder-uri"), "/ws/.venv/bin/python");
    assert.deepEqual(api.resources, ["folder-uri"]);
  });

  it("falls back to the environment path when it cannot be resolved", async () => {
    assert.equal(await activeInterpreter(environments(undefined, "/usr/bin/python3")), "/usr/bin/python3");
    const noResolve: PythonEnvironmentsApi = { getActiveEnvironmentPath: () => ({ id: "a", path: "/opt/python" }) };
    assert.equal(await activeInterpreter(noResolve), "/opt/python");
  });

  it("is undefined when the API throws or has no active environment", async () => {
    const throwing: PythonEnvironmentsApi = {
      getActiveEnvironmentPath: () => {
        throw new Error("no workspace");
      },
    };
    assert.equal(await activeInterpreter(throwing), undefined);
    assert.equal(await activeInterpreter({ getActiveEnvironmentPath: () => undefined }), undefined);
    assert.equal(await activeInterpreter({ getActiveEnvironmentPath: () => ({ id: "", path: "" }) }), undefined);
  });
});
