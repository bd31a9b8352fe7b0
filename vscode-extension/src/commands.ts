/** Command ids, shared by the manifest test and the extension (no `vscode` import here). */
export const RESTART_COMMAND = "sylla.restartServer";
export const SHOW_OUTPUT_COMMAND = "sylla.showOutput";
export const FIX_ALL_COMMAND = "sylla.fixAll";
/** The code-action kind the server offers for "apply every safe fix". */
export const FIX_ALL_KIND = "source.fixAll.sylla";
