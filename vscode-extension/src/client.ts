import { workspace, type OutputChannel } from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import type { ClientHandle } from "./controller";
import { CLIENT_ID, CLIENT_NAME, CONFIG_FILES_GLOB, DOCUMENT_SELECTOR, type ServerLaunch } from "./serverLaunch";
import {
  didChangeConfigurationParams,
  mapConfigurationResults,
  type ConfigurationItem,
  type ServerSettings,
} from "./settings";

export interface ClientOptions {
  readonly output: OutputChannel;
  /** The server settings for the scope of one `workspace/configuration` item. */
  readonly settingsFor: (item: ConfigurationItem) => ServerSettings;
}

/**
 * A `vscode-languageclient` client for `launch`; trace level comes from `sylla.trace.server`.
 *
 * The stdio transport makes the client append `--stdio` to the command line, which
 * `sylla lsp` accepts (and which is also its default). Edits to `sylla.toml` and
 * `pyproject.toml` reach the server as `workspace/didChangeWatchedFiles`, on which it re-lints
 * the open syllabi with the new configuration.
 */
export function createLanguageClient(launch: ServerLaunch, settings: ServerSettings, options: ClientOptions): ClientHandle {
  const serverOptions: ServerOptions = {
    command: launch.command,
    args: [...launch.args],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR.map((filter) => ({ ...filter })),
    outputChannel: options.output,
    initializationOptions: didChangeConfigurationParams(settings),
    synchronize: { fileEvents: workspace.createFileSystemWatcher(CONFIG_FILES_GLOB) },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const results = await next(params, token);
          return Array.isArray(results) ? mapConfigurationResults(params.items, results, options.settingsFor) : results;
        },
      },
    },
  };
  const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  return {
    start: () => client.start(),
    stop: () => client.stop(),
    sendSettings: (current) =>
      client.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(current)),
    serverVersion: () => client.initializeResult?.serverInfo?.version,
  };
}
