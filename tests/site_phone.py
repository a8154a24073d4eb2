"""Checks of a page as a phone reader meets it (issue 24), used by tests/test_site.py.

Each check takes an open Playwright page and returns a list of problems in
words, empty when the page is fine:

- :func:`formula_box_problems`: a formula in the text that fits its paragraph
  is not boxed (no scroll box, tab stop or region of its own), and no two
  regions share a name (axe ``landmark-unique``);
- :func:`proof_formula_problems`: every display formula of a proof fits its
  proof box, so that no step or its reason hides in a sideways scroll;
- :func:`norm_problems`: no norm drawn with ``\\left\\lVert ... \\right\\rVert``,
  which MathJax 3 draws as small bars low on the line;
- :func:`figure_size_problems`: every raster figure of the article carries
  its width and height, so that the text does not jump when it arrives;
- :func:`enlarge_cue_problems`: on a phone, every figure shrunk to the screen
  has a visible "tap to enlarge" button that opens it;
- :func:`failed_animation_problems`: an animation that could not be loaded
  does not keep promising that it loads;
- :func:`covered_control_problems`: no floating element ("Back to top")
  covers an animation's controls while the reader scrolls back up;
- :func:`first_screen_tex_problems`: the first screen shows no TeX (meant for a
  page opened with JavaScript off: the formulas are rendered when the book is
  built), loads no MathJax script, and every formula carries the MathML that
  screen readers read;
- :func:`raw_tex_in_html`: no TeX left in the text of a built page's HTML
  file, outside code (read from the file, no browser).
"""

from __future__ import annotations

import re

FORMULA_BOX_JS = r"""() => {
    const problems = [];
    const block = "p, li, dd, dt, td, th, figcaption, caption, blockquote, .admonition, section";
    for (const math of document.querySelectorAll(
            "mjx-container.math-too-wide, mjx-container:not([display='true'])[role='region']")) {
        const paragraph = math.closest(block);
        if (!paragraph) continue;
        // Measured in place without the box (a copy elsewhere may wrap): the
        // formula's own width on its line.
        const boxed = math.classList.contains("math-too-wide");
        math.classList.remove("math-too-wide");
        const width = math.getBoundingClientRect().width;
        if (boxed) math.classList.add("math-too-wide");
        if (width <= paragraph.clientWidth + 1) {
            problems.push(`a formula that fits its paragraph is boxed as wider than the `
                + `screen (${Math.round(width)}px in ${paragraph.clientWidth}px): `
                + math.textContent.trim().slice(0, 40));
        }
    }
    const names = {};
    for (const region of document.querySelectorAll("[role='region']")) {
        const name = region.getAttribute("aria-label") || "";
        names[name] = (names[name] || 0) + 1;
    }
    for (const [name, count] of Object.entries(names)) {
        if (count > 1) problems.push(`${count} regions share the name "${name}"`);
    }
    return problems;
}"""

PROOF_FORMULA_JS = r"""() => {
    const problems = [];
    for (const box of document.querySelectorAll("div.proof.admonition")) {
        // sphinx-proof gives a proof the classes "proof admonition" only; theorems,
        // definitions and algorithms add their kind.
        if (box.classList.length !== 2) continue;
        const style = getComputedStyle(box);
        const room = box.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        for (const math of box.querySelectorAll("mjx-container[display='true']")) {
            // CHTML output draws the formula in mjx-math, SVG output in an svg element.
            const formula = math.querySelector(":scope > mjx-math, :scope > svg") || math;
            const width = formula.getBoundingClientRect().width;
            if (width > room + 1) {
                const text = (math.querySelector("mjx-assistive-mml") || math).textContent;
                problems.push(`a display formula of a proof is ${Math.round(width)}px wide `
                    + `in a ${Math.round(room)}px proof box: `
                    + text.replace(/\s+/g, " ").trim().slice(0, 60));
            }
        }
    }
    return problems;
}"""

NORM_JS = r"""() => {
    // \left\lVert gives a symmetric (stretchy) fence; \lVert an OPEN/CLOSE symbol.
    const fences = [...document.querySelectorAll("mjx-assistive-mml mo[symmetric='true']")]
        .filter((mo) => mo.textContent.trim() === "\u2016");
    return fences.length
        ? [`${fences.length / 2} norm(s) drawn with \\left\\lVert ... \\right\\rVert `
            + "(small bars low on the line): define \\norm as \\lVert #1 \\rVert"]
        : [];
}"""

FIGURE_SIZE_JS = r"""() => {
    const problems = [];
    for (const img of document.querySelectorAll("article img, .bd-content img")) {
        const name = (img.getAttribute("src") || "").slice(0, 80);
        // The theme's own icons (launch menus) are not the book's figures.
        if (/\.svg/i.test(name) || /_static\//.test(name) || img.closest(".animation")) continue;
        if (!img.getAttribute("width") || !img.getAttribute("height")) {
            problems.push(`figure without width and height (the text jumps when it loads): `
                + name);
        }
    }
    return problems;
}"""

ENLARGE_CUE_JS = r"""() => {
    const problems = [];
    const images = document.querySelectorAll(
        ".bd-content figure img, .bd-content .cell_output img");
    for (const img of images) {
        if (img.closest(".animation, a") || img.clientWidth === 0) continue;
        if (img.naturalWidth < 1.3 * img.clientWidth) continue;
        const cue = img.nextElementSibling;
        const box = cue?.getBoundingClientRect();
        const shown = cue && cue.matches("button.course-enlarge") && box.width > 0
            && box.height > 0 && getComputedStyle(cue).visibility !== "hidden";
        if (!shown) {
            problems.push("a figure shrunk to the phone has no visible 'tap to enlarge' cue: "
                + (img.getAttribute("src") || "").slice(0, 60));
        }
    }
    return problems;
}"""

FAILED_ANIMATION_JS = r"""() => {
    const problems = [];
    for (const holder of document.querySelectorAll(".lazy-animation[data-failed]")) {
        const note = holder.querySelector(".lazy-animation-note");
        const text = (note?.textContent || "").replace(/\s+/g, " ");
        if (!note || /loads as you scroll/i.test(text) || !/could not be loaded/i.test(text)) {
            problems.push(`an animation that failed to load still says: "${text.trim()}"`);
        }
    }
    return problems;
}"""

CONTROLS = ".animation .anim-buttons button, .animation .anim-state input"
COVERED_JS = r"""(control) => {
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.bottom < 0 || box.top > innerHeight) return [];
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const label = control.closest("label") || control.labels?.[0];
    if (!hit || control.contains(hit) || (label && label.contains(hit))) return [];
    const name = control.title || control.value || control.tagName.toLowerCase();
    const by = `${hit.tagName.toLowerCase()}${hit.id ? "#" + hit.id : ""}`;
    return [`an animation's "${name}" control is covered by ${by}`];
}"""


def formula_box_problems(page) -> list[str]:
    """Short formulas boxed as too wide; regions sharing a name."""
    return page.evaluate(FORMULA_BOX_JS)


def proof_formula_problems(page) -> list[str]:
    """Display formulas of a proof wider than the proof box's content."""
    return page.evaluate(PROOF_FORMULA_JS)


def norm_problems(page) -> list[str]:
    r"""Norms drawn with ``\left\lVert ... \right\rVert``."""
    return page.evaluate(NORM_JS)


def figure_size_problems(page) -> list[str]:
    """Raster figures without width and height attributes."""
    return page.evaluate(FIGURE_SIZE_JS)


def enlarge_cue_problems(page) -> list[str]:
    """Shrunk figures without a visible "tap to enlarge" button (phone width)."""
    return page.evaluate(ENLARGE_CUE_JS)


def failed_animation_problems(page) -> list[str]:
    """Failed animations that still promise to load."""
    return page.evaluate(FAILED_ANIMATION_JS)


def covered_control_problems(page) -> list[str]:
    """Animation controls covered by something else after the reader scrolls back up.

    The theme shows "Back to top" when the reader scrolls up, floating at 90 %
    of the screen's height: each control is brought there, the page scrolls
    up a little, and a tap at the control's centre must still reach it.
    """
    problems = []
    controls = page.locator(CONTROLS)
    height = page.viewport_size["height"]
    for index in range(controls.count()):
        control = controls.nth(index).element_handle()
        for where in (0.9 * height,):
            page.evaluate(
                "([c, y]) => window.scrollTo(0, c.getBoundingClientRect().top + scrollY - y)",
                [control, where - 60],
            )
            page.wait_for_timeout(50)
            page.mouse.wheel(0, -60)
            page.wait_for_timeout(150)
            problems += page.evaluate(COVERED_JS, control)
    return sorted(set(problems))


FIRST_SCREEN_TEX_JS = r"""() => {
    const problems = [];
    const skip = "mjx-container, pre, code, script, style, textarea, noscript";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim() || node.parentElement.closest(skip)) continue;
        range.selectNodeContents(node);
        const shown = [...range.getClientRects()].some(
            (r) => r.width > 0 && r.bottom > 0 && r.top < innerHeight);
        if (shown) text += node.textContent + " ";
    }
    const tex = text.match(/\\\(|\\\[|\$\$|\\[A-Za-z]+|\$[^$\s][^$]{0,80}\$/);
    if (tex) problems.push(`TeX on the first screen: ${tex[0]}`);
    for (const script of document.querySelectorAll("script[src]")) {
        if (/mathjax/i.test(script.getAttribute("src"))) {
            problems.push(`the page loads MathJax: ${script.getAttribute("src")}`);
        }
    }
    const silent = [...document.querySelectorAll("mjx-container")]
        .filter((m) => !m.querySelector("mjx-assistive-mml math"));
    if (silent.length) {
        problems.push(`${silent.length} formula(s) without MathML for screen readers`);
    }
    return problems;
}"""


def first_screen_tex_problems(page) -> list[str]:
    """TeX in the first screen's text, a MathJax script, formulas without MathML."""
    return page.evaluate(FIRST_SCREEN_TEX_JS)


# What a page's text may not contain outside code: TeX's math delimiters, an
# environment, or one of the course's macros.
_NOT_TEXT = re.compile(
    r"<(pre|code|script|style|textarea|mjx-container)\b[^>]*>.*?</\1>", re.DOTALL | re.I
)
_TAG = re.compile(r"<[^>]+>")


def raw_tex_in_html(html: str, macros: list[str]) -> list[str]:
    r"""Raw TeX in the text of an HTML page, outside code and rendered formulas.

    Examples
    --------
    >>> raw_tex_in_html("<p>A <span class='math'>\\(x\\)</span></p>", ["vw"])
    ['raw TeX in the text: \\(x\\)']
    >>> raw_tex_in_html("<p>Weights \\vw.</p><pre>\\(x\\)</pre>", ["vw"])
    ['raw TeX in the text: \\vw']
    >>> raw_tex_in_html("<p>A <mjx-container>x</mjx-container>, $5 and $6.</p>", ["vw"])
    []
    """
    text = _TAG.sub(" ", _NOT_TEXT.sub(" ", html))
    names = "|".join(re.escape(name) for name in macros)
    pattern = re.compile(
        r"\\\((?:.{0,40}?\\\))?|\\\[|\$\$|\\begin\{|\\(?:" + names + r")(?![A-Za-z])", re.DOTALL
    )
    return [f"raw TeX in the text: {match.group(0)[:60]}" for match in pattern.finditer(text)]


ICON_JS = r"""() => {
    // The header's icons: each one's glyph, size, button name, and the font file
    // that the page's @font-face rules give its family and weight.
    const faces = [];
    for (const sheet of document.styleSheets) {
        let rules;
        try { rules = sheet.cssRules; } catch { continue; }
        for (const rule of rules) {
            if (!(rule instanceof CSSFontFaceRule)) continue;
            const url = /url\(["']?([^"')]+)["']?\)/.exec(rule.style.getPropertyValue("src"));
            if (!url) continue;
            faces.push({
                family: rule.style.getPropertyValue("font-family").replace(/["']/g, "").trim(),
                weight: rule.style.getPropertyValue("font-weight") || "400",
                src: new URL(url[1], sheet.href || location.href).href,
            });
        }
    }
    const icons = document.querySelectorAll(
        ".bd-header-article .fa-solid, .bd-header-article .fa-brands, "
        + ".bd-header-article .fa-regular, .bd-header .fa-solid, .bd-header .fa-brands");
    return [...icons].map((icon) => {
        const button = icon.closest("button, a, label");
        const style = getComputedStyle(icon, "::before");
        const family = style.fontFamily.replace(/["']/g, "").split(",")[0].trim();
        const face = faces.find((f) => f.family === family && f.weight === style.fontWeight);
        const box = icon.getBoundingClientRect();
        return {
            what: [...icon.classList].join(" "),
            name: ((button && (button.getAttribute("aria-label") || button.title
                || button.textContent)) || "").trim(),
            glyph: style.content.replace(/^"|"$/g, ""),
            shown: icon.offsetParent !== null,
            size: [box.width, box.height],
            src: face ? face.src : null,
        };
    });
}"""

# Font Awesome's full fonts: the site serves subsets (scripts/site/icon_font.py).
FULL_ICON_FONT = re.compile(r"/webfonts/fa-[a-z]+-[0-9]+\.(woff2|ttf|woff)(\?|$)")


def icon_problems(page) -> list[str]:
    """Header icons missing from the font that draws them, without a size, or on buttons
    without a name (the font files are read with fontTools, as the page received them)."""
    import base64
    import io

    from fontTools.ttLib import TTFont

    icons = page.evaluate(ICON_JS)
    problems = [] if icons else ["no icon in the header"]
    cmaps: dict[str, dict] = {}
    for icon in icons:
        what = f"{icon['what']} ({icon['name'] or 'unnamed'})"
        if not icon["name"]:
            problems.append(f"an icon button without a name: {what}")
        if icon["shown"] and 0 in icon["size"]:
            problems.append(f"an icon drawn with no size: {what}")
        if len(icon["glyph"]) != 1 or icon["src"] is None:
            problems.append(f"an icon without a glyph or a font: {what}")
            continue
        if icon["src"] not in cmaps:
            if icon["src"].startswith("data:"):
                body = base64.b64decode(icon["src"].split(",", 1)[1])
            else:
                response = page.request.get(icon["src"])
                body = response.body() if response.ok else b""
            cmaps[icon["src"]] = TTFont(io.BytesIO(body)).getBestCmap() if body else {}
        if ord(icon["glyph"]) not in cmaps[icon["src"]]:
            problems.append(f"an icon missing from its font {icon['src']}: {what}")
    return sorted(set(problems))


ANIMATION_DENSITY_JS = r"""() => {
    // A 2x phone screen shows an animation's frame sharp when the frame has at
    // least two pixels per CSS pixel it is shown at.
    const problems = [];
    for (const frame of document.querySelectorAll('.animation img[id^="_anim_img"]')) {
        if (!frame.complete || frame.clientWidth === 0) continue;
        const ratio = frame.naturalWidth / frame.clientWidth;
        if (ratio < 1.95) {
            problems.push(`an animation's frames have ${ratio.toFixed(2)} pixels per CSS `
                + `pixel (${frame.naturalWidth} px shown ${frame.clientWidth} px wide): `
                + "blurry on a 2x screen");
        }
    }
    return problems;
}"""


def animation_density_problems(page) -> list[str]:
    """Animation frames with fewer than two pixels per CSS pixel shown."""
    return page.evaluate(ANIMATION_DENSITY_JS)


# The first screen's critical path (scripts/site/critical_path.py): what the browser
# must fetch before it can draw the page, on a line where each request costs a
# 400 ms round trip and each kB 20 ms.
MAX_RENDER_BLOCKING = 1  # the one stylesheet the first screen needs
CRITICAL_PATH_JS = r"""(max) => {
    const problems = [];
    for (const script of document.head.querySelectorAll("script[src]")) {
        if (!script.defer && !script.async && script.type !== "module") {
            problems.push("a script in the head holds the first paint back: "
                + script.getAttribute("src"));
        }
    }
    for (const link of document.querySelectorAll('link[rel="preload"][as="script"]')) {
        problems.push("a script preloaded at the stylesheet's priority: "
            + link.getAttribute("href"));
    }
    const blocking = performance.getEntriesByType("resource")
        .filter((entry) => entry.renderBlockingStatus === "blocking")
        .map((entry) => entry.name.split("?")[0].split("/").pop());
    if (blocking.length > max) {
        problems.push(`${blocking.length} render-blocking requests (at most ${max}): `
            + blocking.join(", "));
    }
    for (const img of document.querySelectorAll("article img")) {
        if (img.getAttribute("loading") !== "lazy") {
            problems.push("a figure fetched before the page is laid out (no loading=lazy): "
                + (img.getAttribute("src") || "").slice(0, 80));
        }
    }
    return problems;
}"""

# A stylesheet loaded after the first paint (data-later) must hold no rule that
# an element of the page, as it is once its scripts have run, matches: that
# element would be drawn first without the rule, then change.
LATE_RULES_JS = r"""async () => {
    const problems = [];
    const links = [...document.querySelectorAll('link[rel="stylesheet"][data-later]')];
    await Promise.all(links.map((link) => link.sheet ? null
        : new Promise((resolve) => { link.onload = link.onerror = resolve; })));
    const pseudoElement = new RegExp("::?(before|after|first-line|first-letter|marker|"
        + "placeholder|selection|backdrop|file-selector-button|-webkit-[\\w-]+|-moz-[\\w-]+)",
        "g");
    const visit = (rules, sheet) => {
        for (const rule of rules) {
            if (rule.cssRules && !rule.selectorText) visit(rule.cssRules, sheet);
            if (!rule.selectorText) continue;
            for (const selector of rule.selectorText.split(",")) {
                let found = null;
                try {
                    found = document.querySelector(selector.replace(pseudoElement, ""));
                } catch (error) {
                    continue;  // a selector this browser does not know matches nothing here
                }
                if (found) {
                    problems.push(`a rule loaded after the first paint matches `
                        + `${found.tagName.toLowerCase()}: ${selector.trim()} (${sheet})`);
                }
            }
        }
    };
    for (const link of links) {
        if (!link.sheet) {
            problems.push(`a stylesheet loaded later did not load: ${link.getAttribute("href")}`);
            continue;
        }
        visit(link.sheet.cssRules, link.getAttribute("href").split("/").pop());
    }
    return problems;
}"""


def critical_path_problems(page) -> list[str]:
    """Scripts and preloads ahead of the first paint, too many render-blocking
    requests, figures not lazy, and rules loaded late that the page uses."""
    return page.evaluate(CRITICAL_PATH_JS, MAX_RENDER_BLOCKING) + page.evaluate(LATE_RULES_JS)
