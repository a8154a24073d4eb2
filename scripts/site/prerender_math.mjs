// Render every formula of the built site once, when the book is built
// (issue 24: a phone on a slow line showed raw TeX for 12-16 s while the
// browser fetched and ran MathJax).
//
//   node scripts/site/prerender_math.mjs MACROS.json PAGE.html [PAGE.html ...]
//
// MACROS.json holds the TeX macros of _config.yml (mathjax3_config.tex.macros),
// written by scripts/site/prerender_math.py, so _config.yml stays their one source.
// Each formula that Sphinx wrote as <span class="math">\(...\)</span> or
// <div class="math">\[...\]</div> gets MathJax 3's SVG output inside that same
// element, with the assistive MathML that screen readers read
// (<mjx-assistive-mml>). The glyph outlines of a page are written once, in a
// hidden <svg> at the top of its body (MathJax's "global" font cache), and
// MathJax's small stylesheet goes into the page's head: a page needs no
// script and no web font to show its maths. Pages already rendered are left
// as they are, so the step can run again after an incremental build.
//
// Exit status 1, naming the page and the TeX, if any formula has a TeX error.

import { readFileSync, writeFileSync } from "node:fs";

import { liteAdaptor } from "mathjax-full/js/adaptors/liteAdaptor.js";
import { AssistiveMmlHandler } from "mathjax-full/js/a11y/assistive-mml.js";
import { RegisterHTMLHandler } from "mathjax-full/js/handlers/html.js";
import { TeX } from "mathjax-full/js/input/tex.js";
import { AllPackages } from "mathjax-full/js/input/tex/AllPackages.js";
import { mathjax } from "mathjax-full/js/mathjax.js";
import { SVG } from "mathjax-full/js/output/svg.js";

// What Sphinx's mathjax extension writes: the TeX is HTML-escaped text.
const MATH = /<(span|div) class="math notranslate nohighlight"([^>]*)>([\s\S]*?)<\/\1>/g;
const INLINE = /^\s*\\\(([\s\S]*)\\\)\s*$/;
const DISPLAY = /^([\s\S]*?)\\\[([\s\S]*)\\\]\s*$/; // an equation number may come first
const STYLE_ID = "MJX-SVG-styles";

const [macrosFile, ...pages] = process.argv.slice(2);
if (!macrosFile || pages.length === 0) {
  console.error("usage: node scripts/site/prerender_math.mjs MACROS.json PAGE.html [...]");
  process.exit(2);
}
const macros = JSON.parse(readFileSync(macrosFile, "utf8"));

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
const tex = new TeX({
  packages: AllPackages.filter((name) => name !== "bussproofs"),
  macros,
  formatError: (jax, error) => {
    throw error; // a TeX error fails the build instead of showing red text
  },
});
const svg = new SVG({ fontCache: "global" });
const document = mathjax.document("", { InputJax: tex, OutputJax: svg });

function unescapeHtml(text) {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function render(texSource, display) {
  // Metrics of the book's body text (16 px, ex about half an em); the line
  // width only matters for MathJax's line breaking, which is off.
  const node = document.convert(unescapeHtml(texSource), {
    display,
    em: 16,
    ex: 8,
    containerWidth: 80 * 16,
  });
  return adaptor.outerHTML(node);
}

let failures = 0;
let total = 0;
for (const file of pages) {
  const html = readFileSync(file, "utf8");
  if (!html.includes('class="math notranslate nohighlight"')) continue;
  svg.fontCache.clearCache();
  let count = 0;
  const rendered = html.replace(MATH, (whole, tag, attributes, content) => {
    if (content.includes("<mjx-container")) return whole; // rendered before
    const inline = tag === "span" ? INLINE.exec(content) : null;
    const display = inline ? null : DISPLAY.exec(content);
    const [prefix, source] = inline ? ["", inline[1]] : display ? [display[1], display[2]]
      : ["", content];
    try {
      count += 1;
      const output = render(source, !inline);
      return `<${tag} class="math notranslate nohighlight"${attributes}>${prefix}${output}</${tag}>`;
    } catch (error) {
      failures += 1;
      console.error(`${file}: TeX error in ${source.trim().slice(0, 80)}: ${error.message}`);
      return whole;
    }
  });
  if (count === 0) continue;
  total += count;
  const cache = adaptor.outerHTML(svg.pageElements(document));
  const style = `<style id="${STYLE_ID}">${adaptor.textContent(svg.styleSheet(document))}</style>`;
  let page = rendered.replace(/<body([^>]*)>/, (body) => `${body}\n${cache}`);
  if (!page.includes(`id="${STYLE_ID}"`)) page = page.replace("</head>", `${style}\n</head>`);
  writeFileSync(file, page);
}
console.log(`prerender_math: ${total} formula(s) rendered in ${pages.length} page(s)`);
process.exit(failures ? 1 : 0);
