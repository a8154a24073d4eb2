// Render every Markdown cell of the Colab edition as Colab renders it, and
// report what a student would see broken.
//
//   node tests/colab/render_markdown.mjs NOTEBOOK.ipynb [NOTEBOOK.ipynb ...]
//
// Colab's Markdown is CommonMark with maths: $...$ inline and $$...$$ on display,
// taken out before the Markdown is parsed (so `_` and `*` inside a formula stay
// TeX) and drawn by MathJax. Here markdown-it parses the Markdown the same way,
// and MathJax 3's TeX input reads each formula with none of the course's macros
// (Colab knows none of them). Reported, one JSON object per problem on stdout:
//
// - "directive": a MyST directive left as a fence (```{prf:theorem}, :::{note}),
//   which Colab shows as a code block or as raw text;
// - "role": a MyST role left in the text ({ref}`...`, {cite:p}`...`, {glue}`...`)
//   or a MyST target line ((label)=);
// - "math": a formula that MathJax cannot typeset (an undefined control sequence
//   such as \vw, unbalanced braces, ...), with MathJax's message; or a formula
//   spread over several lines of a blockquote, whose ">" markers a renderer that
//   reads the maths first (JupyterLab's) draws as ">" signs.
//
// Each problem names the notebook, the cell (its index and id) and the text.
// The last line on stderr counts cells and formulas. Exit status 1 when anything
// is reported, 2 on a usage error.

import { readFileSync } from "node:fs";

import MarkdownIt from "markdown-it";
import { liteAdaptor } from "mathjax-full/js/adaptors/liteAdaptor.js";
import { RegisterHTMLHandler } from "mathjax-full/js/handlers/html.js";
import { TeX } from "mathjax-full/js/input/tex.js";
import { AllPackages } from "mathjax-full/js/input/tex/AllPackages.js";
import { mathjax } from "mathjax-full/js/mathjax.js";

// TeX packages a browser's MathJax has; not those that hide an undefined macro or an
// error (noundefined, noerrors) nor those that load more at run time (autoload, require).
const PACKAGES = AllPackages.filter(
  (name) => !["noundefined", "noerrors", "autoload", "require", "bussproofs"].includes(name),
);
const DIRECTIVE_FENCE = /^\s*(`{3,}|~{3,}|:{3,})\s*\{[^}]+\}/;
const ROLE = /\{[A-Za-z][\w:.-]*\}<code>/g;
const TARGET = /^\s*\(\S+\)=\s*$/m;
// A formula over several lines of a blockquote: renderers that take the maths out
// before parsing the Markdown (JupyterLab does) keep each line's ">" in the TeX.
const QUOTED_LINE = /\n[ \t]*>/;

RegisterHTMLHandler(liteAdaptor());
let texError = null;
const tex = new TeX({
  packages: PACKAGES,
  formatError: (jax, error) => {
    texError = error.message;
    return jax.formatError(error);
  },
});
const document = mathjax.document("", { InputJax: tex });
const markdown = new MarkdownIt({ html: true, linkify: false });

// The message MathJax gives for a formula, or null when it typesets.
export function texProblem(source, display) {
  texError = null;
  const node = document.convert(source, { display }); // MathML's tree (no output jax)
  node.walkTree((child) => {
    if (texError === null && child.isKind("merror")) texError = "merror";
  });
  return texError;
}

// Split Markdown into [kind, text] parts: "code" (fenced code, inline code spans),
// "display" and "inline" maths, and "text" for the rest.
export function splitMath(source) {
  const parts = [];
  const lines = source.split("\n");
  let buffer = [];
  const flush = () => {
    if (buffer.length) parts.push(...splitInline(buffer.join("\n") + "\n"));
    buffer = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const fence = lines[i].match(/^\s*(`{3,}|~{3,})/);
    if (!fence) {
      buffer.push(lines[i]);
      continue;
    }
    flush();
    const block = [lines[i]];
    for (i++; i < lines.length; i++) {
      block.push(lines[i]);
      if (lines[i].trim().startsWith(fence[1])) break;
    }
    parts.push(["code", block.join("\n") + "\n"]);
  }
  flush();
  return parts;
}

function splitInline(text) {
  // Inline code first (a $ inside backticks is code), then $$...$$, then $...$:
  // an inline formula opens on a $ not followed by a space and closes on a $ not
  // preceded by one nor followed by a digit, on the same line, and holds no backtick
  // (a code span that starts inside it wins: "costs $5, `$x$`" has no formula).
  const pattern = /(`+)[\s\S]*?\1|\$\$([\s\S]+?)\$\$|\$(?=\S)((?:\\\$|[^$\n`])+?)(?<=\S)\$(?!\d)/g;
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(["text", text.slice(last, match.index)]);
    if (match[1]) parts.push(["code", match[0]]);
    else if (match[2] !== undefined) parts.push(["display", match[2]]);
    else parts.push(["inline", match[3]]);
    last = match.index + match[0].length;
  }
  parts.push(["text", text.slice(last)]);
  return parts.filter(([, value]) => value !== "");
}

// The problems of one Markdown cell's source, as {kind, text, message?}.
export function cellProblems(source) {
  const problems = [];
  const parts = splitMath(source);
  let protectedSource = "";
  let formulas = 0;
  for (const [kind, value] of parts) {
    if (kind === "display" || kind === "inline") {
      formulas++;
      const message = QUOTED_LINE.test(value)
        ? "a blockquote's '>' inside the formula (shown as '>' where maths is read first)"
        : texProblem(value, kind === "display");
      if (message) problems.push({ kind: "math", text: value.trim(), message });
      protectedSource += `MATH${formulas}X`; // letters only: Markdown leaves it alone
    } else {
      protectedSource += value;
    }
  }
  const tokens = markdown.parse(protectedSource, {});
  for (const token of tokens) {
    if (token.type === "fence" && token.info.trim().startsWith("{")) {
      problems.push({ kind: "directive", text: "```" + token.info.trim() });
    }
    if (token.type === "inline") {
      const first = token.content.split("\n").find((line) => DIRECTIVE_FENCE.test(line));
      if (first) problems.push({ kind: "directive", text: first.trim() });
      if (TARGET.test(token.content)) {
        problems.push({ kind: "role", text: token.content.match(TARGET)[0].trim() });
      }
    }
  }
  const html = markdown.renderer.render(tokens, markdown.options, {});
  for (const match of html.matchAll(ROLE)) {
    const end = html.indexOf("</code>", match.index);
    problems.push({ kind: "role", text: html.slice(match.index, end + 7) });
  }
  return { problems, formulas };
}

function main(paths) {
  if (paths.length === 0) {
    console.error("usage: node tests/colab/render_markdown.mjs NOTEBOOK.ipynb [...]");
    process.exit(2);
  }
  let cells = 0;
  let formulas = 0;
  let reported = 0;
  for (const path of paths) {
    const notebook = JSON.parse(readFileSync(path, "utf8"));
    notebook.cells.forEach((cell, index) => {
      if (cell.cell_type !== "markdown") return;
      cells++;
      const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      const found = cellProblems(source);
      formulas += found.formulas;
      for (const problem of found.problems) {
        reported++;
        console.log(JSON.stringify({ notebook: path, cell: index, id: cell.id, ...problem }));
      }
    });
  }
  console.error(`${paths.length} notebooks, ${cells} Markdown cells, ${formulas} formulas, ` +
    `${reported} problems`);
  process.exit(reported ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
