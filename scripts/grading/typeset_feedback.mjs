// Typeset the maths of nbgrader's feedback pages once, so that a page shows its
// formulas with no network (offline, in an exam room) and loads no script.
//
//   node scripts/grading/typeset_feedback.mjs PAGE.html [PAGE.html ...]
//
// nbconvert writes a page's formulas as the notebook's TeX ($...$, $$...$$,
// \(...\), \[...\], environments) and loads MathJax 2 from a CDN to typeset them
// in the browser. Here MathJax 3 (the npm package mathjax-full that
// scripts/site/prerender_math.mjs uses for the book) runs over each whole page
// with the same delimiters: every formula becomes an SVG drawing with the
// MathML that screen readers read, the glyphs are written once at the top of
// the body and MathJax's small stylesheet goes into the head. The CDN script
// and its configuration are removed. Code and outputs (<pre>, <code>, scripts)
// are left as they are. A TeX error in a student's written answer shows as
// MathJax's red error text in that formula only. A page already typeset (it has
// the stylesheet) is left as it is.
//
// Prints one line per page written; exit status 1 if a page cannot be read or written.

import { readFileSync, writeFileSync } from "node:fs";

import { liteAdaptor } from "mathjax-full/js/adaptors/liteAdaptor.js";
import { AssistiveMmlHandler } from "mathjax-full/js/a11y/assistive-mml.js";
import { RegisterHTMLHandler } from "mathjax-full/js/handlers/html.js";
import { TeX } from "mathjax-full/js/input/tex.js";
import { AllPackages } from "mathjax-full/js/input/tex/AllPackages.js";
import { mathjax } from "mathjax-full/js/mathjax.js";
import { SVG } from "mathjax-full/js/output/svg.js";

const STYLE_ID = "MJX-SVG-styles";
// What nbconvert's mathjax() macro writes in the head: the loader and its configuration.
const CDN_SCRIPT = /<script[^>]*\ssrc="[^"]*mathjax[^"]*"[^>]*>\s*<\/script>/gi;
const CONFIG_SCRIPT = /<script type="text\/x-mathjax-config">[\s\S]*?<\/script>/gi;

const pages = process.argv.slice(2);
if (pages.length === 0) {
  console.error("usage: node scripts/grading/typeset_feedback.mjs PAGE.html [...]");
  process.exit(2);
}

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));

let failures = 0;
for (const file of pages) {
  try {
    const source = readFileSync(file, "utf8");
    if (source.includes(`id="${STYLE_ID}"`)) continue; // typeset before
    // A TeX input per page: the macros a page defines (\newcommand) stay in it.
    const tex = new TeX({
      packages: AllPackages.filter((name) => name !== "bussproofs"),
      inlineMath: [["$", "$"], ["\\(", "\\)"]],
      displayMath: [["$$", "$$"], ["\\[", "\\]"]],
      processEscapes: true,
      processEnvironments: true,
      tags: "ams",
    });
    const svg = new SVG({ fontCache: "global" });
    const page = mathjax.document(source.replace(CDN_SCRIPT, "").replace(CONFIG_SCRIPT, ""), {
      InputJax: tex,
      OutputJax: svg,
    });
    page.render();
    // The stylesheet MathJax adds to the head, named so that a second run sees it.
    const style = adaptor.elementById(adaptor.head(page.document), "MJX-SVG-styles");
    if (style === null) {
      const sheet = svg.styleSheet(page);
      adaptor.setAttribute(sheet, "id", STYLE_ID);
      adaptor.append(adaptor.head(page.document), sheet);
    }
    const html = adaptor.doctype(page.document) + adaptor.outerHTML(adaptor.root(page.document));
    writeFileSync(file, html);
    console.log(`typeset ${Array.from(page.math).length} formula(s): ${file}`);
  } catch (error) {
    failures += 1;
    console.error(`${file}: ${error.message}`);
  }
}
process.exit(failures ? 1 : 0);
