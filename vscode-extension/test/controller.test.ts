import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServerController, type ClientHandle, type ControllerDeps } from "../src/controller";
import { installAdvice, type InstallAdvice } from "../src/installAdvice";
import type { Interpreter } from "../src/interpreter";
import type { ServerLaunch } from "../src/serverLaunch";
import type { ServerSettings } from "../src/settings";
import type { ProbeResult } from "../src/syllaProbe";

interface FakeClient extends ClientHandle {
  readonly launch: ServerLaunch;
  readonly initialSettings: ServerSettings;
  readonly events: string[];
  readonly sent: ServerSettings[];
}

function harness(options: { probe?: ProbeResult; interpreter?: Interpreter; failStart?: boolean } = {}) {
  const clients: FakeClient[] = [];
  const problems: InstallAdvice[] = [];
  const probed: string[] = [];
  let settings: ServerSettings = { profile: "l2m" };
  let interpreter: Interpreter = options.interpreter ?? { command: "/ws/.venv/bin/python", source: "setting" };
  const deps: ControllerDeps = {
    resolveInterpreter: async () => interpreter,
    probe: async (python) => {
      probed.push(python);
      return options.probe ?? { kind: "ok" };
    },
    advise: (probe, chosen) => installAdvice(probe, chosen, { platform: "linux" }),
    readSettings: () => settings,
    createClient: (launch, initialSettings) => {
      const events: string[] = [];
      const sent: ServerSettings[] = [];
      const client: FakeClient = {
        launch,
        initialSettings,
        events,
        sent,
        start: async () => {
          events.push("start");
          if (options.failStart) throw new Error("server exited");
        },
        stop: async () => {
          events.push("stop");
        },
        sendSettings: async (current) => {
          sent.push(current);
        },
      };
      clients.push(client);
      return client;
    },
    showProblem: (advice) => problems.push(advice),
    log: () => undefined,
  };
  return {
    controller: new ServerController(deps),
    clients,
    problems,
    probed,
    setSettings: (next: ServerSettings) => (settings = next),
    setInterpreter: (next: Interpreter) => (interpreter = next),
  };
}

describe("ServerController", () => {
  it("probes the interpreter, then starts `<python> -m sylla lsp` with the current settings", async () => {
    const h = harness();
    await h.controller.start();
    assert.deepEqual(h.probed, ["/ws/.venv/bin/python"]);
    assert.equal(h.clients.length, 1);
    assert.deepEqual(h.clients[0]?.launch, { command: "/ws/.venv/bin/python", args: ["-m", "sylla", "lsp"] });
    assert.deepEqual(h.clients[0]?.initialSettings, { profile: "l2m" });
    assert.deepEqual(h.clients[0]?.events, ["start"]);
    assert.equal(h.controller.state, "running");
  });

  it("shows the install advice and starts no client when sylla is missing", async () => {
    const h = harness({ probe: { kind: "missing" }, interpreter: { command: "python3", source: "default" } });
    await h.controller.start();
    assert.equal(h.clients.length, 0);
    assert.equal(h.problems.length, 1);
    assert.equal(h.problems[0]?.installCommand, "python3 -m pip install sylla");
    assert.match(h.problems[0]?.message ?? "", /^sylla is not installed for the Python interpreter "python3"/);
    assert.equal(h.controller.state, "blocked");
  });

  it("starts only one client when start is called twice", async () => {
    const h = harness();
    await Promise.all([h.controller.start(), h.controller.start()]);
    assert.equal(h.clients.length, 1);
  });

  it("restarts by stopping the old client before starting one with the new interpreter", async () => {
    const h = harness();
    await h.controller.start();
    h.setInterpreter({ command: "/opt/other/python", source: "setting" });
    await h.controller.restart();
    assert.deepEqual(h.clients[0]?.events, ["start", "stop"]);
    assert.equal(h.clients[1]?.launch.command, "/opt/other/python");
    assert.deepEqual(h.clients[1]?.events, ["start"]);
  });

  it("sends changed settings to the running server, and nothing when none runs", async () => {
    const h = harness();
    await h.controller.settingsChanged();
    await h.controller.start();
    h.setSettings({ profile: "pretest", ignore: ["SY1"] });
    await h.controller.settingsChanged();
    assert.deepEqual(h.clients[0]?.sent, [{ profile: "pretest", ignore: ["SY1"] }]);
  });

  it("stops the client on stop", async () => {
    const h = harness();
    await h.controller.start();
    await h.controller.stop();
    assert.deepEqual(h.clients[0]?.events, ["start", "stop"]);
    assert.equal(h.controller.state, "stopped");
  });

  it("rejects a failed start but stays usable for a later restart", async () => {
    const h = harness({ failStart: true });
    await assert.rejects(h.controller.start(), /server exited/);
    assert.equal(h.controller.state, "stopped");
    await assert.rejects(h.controller.restart(), /server exited/);
    assert.equal(h.clients.length, 2);
  });
});
