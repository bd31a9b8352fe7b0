// Drive a real VS Code (code-server) in Debian's chromium through playwright-core, as a user
// would: open a syllabus, read the Problems panel, hover over a block, apply a quick fix from
// the lightbulb menu and save. Prints one JSON line with what it saw; the pytest side asserts.
//
// usage: node drive.js URL FILE_NAME OUT_DIR
// env:   SYLLA_CHROMIUM (default /usr/bin/chromium), SYLLA_HOVER_LINE, SYLLA_HOVER_COLUMN, SYLLA_FIX_LINE,
//        SYLLA_FIX_TITLE, SYLLA_FIX_CODE (the code the fix removes), SYLLA_CODES (comma-separated
//        codes to wait for), SYLLA_SCHEMA_FILE, SYLLA_SCHEMA_WAIT_FOR and SYLLA_SCHEMA_CODE (VS
//        Code's message and sylla's code for it), SYLLA_XML_FILE, SYLLA_XML_CODE and
//        SYLLA_XML_COUNT (a Science Birds config, the code its Problems rows must show, how many)
// Every step waits for what the page must show, never for a fixed time: on a busy machine the
// server's answer can take any time, and a timeout only bounds a hang.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { chromium } = require("playwright-core");

const [url, fileName, outDir] = process.argv.slice(2);
const codes = (process.env.SYLLA_CODES || "").split(",").filter(Boolean);
const result = { steps: [] };
const started = Date.now();
const step = (name) => result.steps.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${name}`);

async function palette(page, command) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${command}`);
  await page.locator(".quick-input-widget .monaco-list-row").first().waitFor({ state: "visible" });
  await page.keyboard.press("Enter");
}

async function goTo(page, line, column) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden" });
}

// Ctrl+. as a user presses it: once the lightbulb shows that the editor has the actions for
// the cursor (pressed before that, VS Code may answer "no code actions" and show no menu, as
// it does for a user who is too quick), and once more if the menu still did not open. The
// attempts are reported, so a run that needed the second press is visible in the result.
async function openQuickFixMenu(page, menu) {
  await page.locator(".monaco-editor .lightBulbWidget").filter({ visible: true }).first()
    .waitFor({ state: "visible", timeout: 20_000 }).catch(() => undefined);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+.");
    try {
      await menu.waitFor({ state: "visible", timeout: attempt < 2 ? 15_000 : 60_000 });
      return attempt;
    } catch (error) {
      if (attempt >= 2) throw error;
      await page.keyboard.press("Escape");
    }
  }
}

const text = async (locator) => ((await locator.textContent()) || "").replace(/\u00a0/g, " ");

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const context = await chromium.launchPersistentContext(path.join(outDir, "chromium-profile"), {
    executablePath: process.env.SYLLA_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(60_000);
  try {
    await page.goto(url);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 90_000 });
    step("workbench");

    await page.keyboard.press("Control+P");
    const quickOpen = page.locator(".quick-input-widget input");
    await quickOpen.waitFor({ state: "visible" });
    await quickOpen.fill(fileName);
    await page.locator(".quick-input-widget .monaco-list-row", { hasText: fileName }).first().waitFor();
    await page.keyboard.press("Enter");
    const lines = page.locator(".monaco-editor .view-lines").first();
    await page.waitForFunction(() => (document.querySelector(".monaco-editor .view-lines")?.textContent || "").includes("instructions"));
    step("file open");

    await palette(page, "View: Focus Problems");
    const problems = page.locator(".markers-panel");
    await problems.waitFor({ state: "visible" });
    await page.waitForFunction(
      (wanted) => {
        const panel = document.querySelector(".markers-panel")?.textContent || "";
        return wanted.every((code) => panel.includes(code));
      },
      codes,
      { timeout: 90_000 },
    );
    result.problems = await text(problems);
    result.problemRows = (await problems.locator(".monaco-list-row").allTextContents()).map((t) => t.replace(/\u00a0/g, " "));
    step("problems");
    await page.screenshot({ path: path.join(outDir, "problems.png") });

    // Back to the editor, then the hover over a block's task name.
    await page.locator(".monaco-editor .view-lines").first().click({ position: { x: 5, y: 5 } });
    await goTo(page, Number(process.env.SYLLA_HOVER_LINE), Number(process.env.SYLLA_HOVER_COLUMN));
    await palette(page, "Show or Focus Hover");
    const hover = page.locator(".monaco-hover:not(.hidden) .monaco-hover-content").first();
    await hover.waitFor({ state: "visible" });
    await page.waitForFunction(() => /episodes? \d/.test(document.querySelector(".monaco-hover:not(.hidden) .monaco-hover-content")?.textContent || ""));
    result.hover = await text(hover);
    step("hover");
    await page.screenshot({ path: path.join(outDir, "hover.png") });
    await page.keyboard.press("Escape");

    // The quick fix, picked from the lightbulb menu (Ctrl+.) like a user picks it.
    await goTo(page, Number(process.env.SYLLA_FIX_LINE), 8);
    const menu = page.locator(".action-widget").filter({ visible: true }).first();
    result.quickFixAttempts = await openQuickFixMenu(page, menu);
    result.actions = (await menu.locator(".monaco-list-row").allTextContents()).map((t) => t.replace(/\u00a0/g, " "));
    await page.screenshot({ path: path.join(outDir, "quick-fix-menu.png") });
    await menu.locator(".monaco-list-row", { hasText: process.env.SYLLA_FIX_TITLE }).first().click();
    await page.waitForFunction(() => (document.querySelector(".monaco-editor .view-lines")?.textContent || "").includes("$info"));
    await page.keyboard.press("Control+S");
    await page.waitForFunction(() => !document.querySelector(".tab.dirty"), undefined, { timeout: 20_000 });
    step("quick fix applied and saved");
    result.editor = await text(lines);

    await palette(page, "View: Focus Problems");
    // the server's re-lint of the saved text: the fixed code gone, the others still listed
    await page.waitForFunction(
      ([gone, kept]) => {
        const panel = document.querySelector(".markers-panel")?.textContent || "";
        return !panel.includes(gone) && panel.includes(kept);
      },
      [process.env.SYLLA_FIX_CODE, codes.find((code) => code !== process.env.SYLLA_FIX_CODE)],
      { timeout: 90_000 },
    );
    result.problemsAfter = await text(problems);
    await page.screenshot({ path: path.join(outDir, "code-server.png") });

    // VS Code's own JSON validation of a second file, through the schema the extension ships.
    if (process.env.SYLLA_SCHEMA_FILE) {
      await page.keyboard.press("Control+P");
      await quickOpen.waitFor({ state: "visible" });
      await quickOpen.fill(process.env.SYLLA_SCHEMA_FILE);
      await page.locator(".quick-input-widget .monaco-list-row", { hasText: process.env.SYLLA_SCHEMA_FILE }).first().waitFor();
      await page.keyboard.press("Enter");
      await palette(page, "View: Focus Problems");
      // Only this file's problems: the list is virtual and shows the rows that fit.
      const filter = page.locator(".markers-panel-container input, .viewpane-filter input").first();
      await filter.fill(`**/${process.env.SYLLA_SCHEMA_FILE}`);
      // both sources have reported: VS Code's JSON validation and the sylla server
      await page.waitForFunction(
        (wanted) => {
          const panel = document.querySelector(".markers-panel")?.textContent || "";
          return wanted.every((part) => panel.includes(part));
        },
        [process.env.SYLLA_SCHEMA_WAIT_FOR, process.env.SYLLA_SCHEMA_CODE],
        { timeout: 90_000 },
      );
      result.schemaProblems = (await problems.locator(".monaco-list-row").allTextContents()).map((t) => t.replace(/\u00a0/g, " "));
      await page.screenshot({ path: path.join(outDir, "schema.png") });
    }
    // A Science Birds config (XML): its sylla findings in the Problems panel.
    if (process.env.SYLLA_XML_FILE) {
      await page.keyboard.press("Control+P");
      await quickOpen.waitFor({ state: "visible" });
      await quickOpen.fill(process.env.SYLLA_XML_FILE);
      await page.locator(".quick-input-widget .monaco-list-row", { hasText: process.env.SYLLA_XML_FILE }).first().waitFor();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => (document.querySelector(".monaco-editor .view-lines")?.textContent || "").includes("config_generation"));
      await palette(page, "View: Focus Problems");
      const filter = page.locator(".markers-panel-container input, .viewpane-filter input").first();
      await filter.fill(`**/${process.env.SYLLA_XML_FILE}`);
      // every finding of the file listed (rows, not only the first one drawn)
      await page.waitForFunction(
        ([code, count]) => [...document.querySelectorAll(".markers-panel .monaco-list-row")]
          .filter((row) => (row.textContent || "").includes(code)).length >= count,
        [process.env.SYLLA_XML_CODE, Number(process.env.SYLLA_XML_COUNT || 1)],
        { timeout: 90_000 },
      );
      result.xmlProblems = (await problems.locator(".monaco-list-row").allTextContents()).map((t) => t.replace(/\u00a0/g, " "));
      await page.screenshot({ path: path.join(outDir, "xml.png") });
      step("xml problems");
    }
    step("done");
  } catch (error) {
    result.error = String(error && error.stack ? error.stack : error);
    await page.screenshot({ path: path.join(outDir, "failure.png") }).catch(() => undefined);
  } finally {
    await context.close();
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stdout.write(`${JSON.stringify({ ...result, error: String(error) })}\n`);
  process.exit(1);
});
