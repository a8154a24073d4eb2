"""The checks of what a reader does with a page, used by tests/test_site.py.

Each check takes a Playwright page (already open, unless it says otherwise)
and returns a list of problems in words, empty when the page is fine:

- :func:`chapter_menu_problems`: on a phone, the chapter menu (☰) opens and
  takes the reader to another chapter;
- :func:`page_menu_problems`: on a phone, the "on this page" menu opens and
  jumps to a section;
- :func:`axe_problems`: axe-core finds no violation of impact serious or
  critical (axe is vendored in ``tests/vendor``: no network at test time);
- :func:`weight_problems`: a first visit stays within the page's budget of
  bytes transferred (gzip-compressed, as GitHub Pages serves) and requests;
- :func:`overflow_problems`: at phone width no element reaches beyond the
  screen's right edge, except inside a scroll container that says so (it is
  focusable with the keyboard and has a label: ``tabindex="0"`` and
  ``aria-label``, which the course's JavaScript gives wide code and math);
- :func:`dark_animation_problems`: in the dark theme an animation's controls
  sit on a dark panel, and their radio buttons are drawn for a dark page;
- :func:`tap_target_problems`: on a phone, every button is at least 44 x 44 px
  (links inside sentences are exempt: they are text).
"""

from __future__ import annotations

from pathlib import Path

from site_weight import Weight, measure

AXE_SCRIPT = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"  # from the npm registry: tests/vendor/README.md
BLOCKING_IMPACTS = ("serious", "critical")
MENU_TIMEOUT_MS = 3_000

# First visit, gzip-compressed. A chapter carries MathJax, its fonts and its
# figures; its animations load when the reader scrolls to them. Measured when
# these were set (issue 13): chapters 1-4 0.82-0.95 MB in 41-45 requests, the
# intro 0.63 MB (it has math), the other pages 0.31 MB in 28 requests. The
# chapter budget is the target; a chapter over it needs lighter
# figures (fewer, or smaller PNGs), not a bigger budget.
CHAPTER_BUDGET = {"bytes": 1_000_000, "requests": 55}
PAGE_BUDGET = {"bytes": 700_000, "requests": 40}
# Reference pages that are mostly formulas load MathJax's script and more of its
# fonts than the others (the notation page: 0.72 MB in 36 requests, no figure).
MATH_PAGES = {"book/intro", "book/notation"}
MATH_PAGE_BUDGET = {"bytes": 800_000, "requests": 40}


# --------------------------------------------------------------------------
# Phone navigation
# --------------------------------------------------------------------------


def _open_menu(page, toggle_selector: str, what: str) -> tuple[object | None, list[str]]:
    """Tap the visible ``toggle_selector`` button; return the menu that opened."""
    toggles = page.locator(f"{toggle_selector}:visible")
    if toggles.count() == 0:
        return None, [f"no visible {what} button at phone width"]
    toggles.first.click()
    menu = page.locator("dialog[open]").first
    try:
        menu.wait_for(state="visible", timeout=MENU_TIMEOUT_MS)
    except Exception:  # noqa: BLE001 (Playwright's TimeoutError and friends)
        return None, [f"the {what} does not open when its button is tapped"]
    return menu, []


def chapter_menu_problems(page, target: str) -> list[str]:
    """Open the chapter menu (☰) and follow its link to ``target`` (a page's URL)."""
    menu, problems = _open_menu(page, ".primary-toggle", "chapter menu")
    if menu is None:
        return problems
    link = menu.locator(f'a[href$="{target.rsplit("/", 1)[-1]}"]:visible')
    if link.count() == 0:
        return [f"the chapter menu has no visible link to {target}"]
    link.first.click()
    try:
        page.wait_for_url(f"**/{target.rsplit('/', 1)[-1]}", timeout=MENU_TIMEOUT_MS)
    except Exception:  # noqa: BLE001
        return [f"the chapter menu's link did not go to {target} (at {page.url})"]
    return []


def page_menu_problems(page) -> list[str]:
    """Open the "on this page" menu and jump to its last section."""
    menu, problems = _open_menu(page, ".secondary-toggle", '"on this page" menu')
    if menu is None:
        return problems
    links = menu.locator('a[href^="#"]:visible')
    if links.count() == 0:
        return ['the "on this page" menu lists no section']
    link = links.last
    section = link.get_attribute("href")
    link.click()
    try:
        page.wait_for_function(
            """(id) => {
                const target = document.getElementById(decodeURIComponent(id.slice(1)));
                if (!target || location.hash !== id) return false;
                const box = target.getBoundingClientRect();
                return box.top >= -2 && box.top < window.innerHeight;
            }""",
            arg=section,
            timeout=MENU_TIMEOUT_MS,
        )
    except Exception:  # noqa: BLE001
        return [f'the "on this page" menu did not jump to {section}']
    if page.locator("dialog[open]").count():
        return [f'the "on this page" menu stays open over {section}']
    return []


# --------------------------------------------------------------------------
# axe-core
# --------------------------------------------------------------------------


def axe_problems(page) -> list[str]:
    """Violations of impact serious or critical, one line per rule."""
    page.add_script_tag(content=AXE_SCRIPT.read_text(encoding="utf-8"))
    version = page.evaluate("window.axe.version")
    if version != AXE_VERSION:
        return [f"axe-core {version} loaded, {AXE_VERSION} expected"]
    violations = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => n.target.join(" ")),
            }));
        }"""
    )
    problems = []
    for violation in violations:
        if violation["impact"] in BLOCKING_IMPACTS:
            nodes = violation["nodes"]
            problems.append(
                f"axe {violation['impact']}: {violation['id']} ({violation['help']}) "
                f"on {len(nodes)} element(s), the first: {nodes[0][:100]}"
            )
    return problems


# --------------------------------------------------------------------------
# Weight
# --------------------------------------------------------------------------


def budget_for(docname: str, chapter: bool) -> dict:
    """The page's budget: chapters carry math and figures, math pages math, others less."""
    if chapter:
        return CHAPTER_BUDGET
    return MATH_PAGE_BUDGET if docname in MATH_PAGES else PAGE_BUDGET


def weight_problems(browser, url: str, budget: dict, viewport: dict) -> tuple[list[str], Weight]:
    """A first visit of ``url`` (served compressed) within ``budget``."""
    weight, _ = measure(browser, url, viewport=viewport)
    problems = []
    if weight.bytes > budget["bytes"]:
        problems.append(
            f"over its weight budget: {weight.describe()}, budget {budget['bytes'] / 1e6:.2f} MB"
        )
    if weight.requests > budget["requests"]:
        problems.append(
            f"over its request budget: {weight.requests} requests, budget {budget['requests']}"
        )
    return problems, weight


# --------------------------------------------------------------------------
# Sideways overflow at phone width
# --------------------------------------------------------------------------

OVERFLOW_JS = r"""() => {
    const width = document.documentElement.clientWidth;
    // A scroll container that says so: it scrolls sideways, the keyboard can
    // reach it, and it has a label that a screen reader announces.
    const saysItScrolls = (e) => {
        const style = getComputedStyle(e);
        return ["auto", "scroll"].includes(style.overflowX)
            && e.getAttribute("tabindex") === "0"
            && (e.getAttribute("aria-label") || "").trim() !== ""
            && e.getBoundingClientRect().right <= width + 1;
    };
    const clipped = (e) => {
        for (let up = e.parentElement; up; up = up.parentElement) {
            if (saysItScrolls(up)) return true;
            const style = getComputedStyle(up);
            // Hidden overflow cuts content off: that is not a way out either,
            // unless the element is not shown at all.
            if (style.display === "none" || style.visibility === "hidden") return true;
        }
        return false;
    };
    const problems = [];
    for (const e of document.querySelectorAll("body *")) {
        const box = e.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || box.right <= width + 1) continue;
        if (e.closest("dialog:not([open]), [hidden], .visually-hidden, .sr-only")) continue;
        if (getComputedStyle(e).position === "fixed") continue;
        if (clipped(e)) continue;
        const name = e.tagName.toLowerCase()
            + (e.id ? `#${e.id}` : "")
            + (typeof e.className === "string" && e.className
                ? "." + e.className.trim().split(/\s+/).join(".") : "");
        problems.push(`${name} reaches ${Math.round(box.right)}px on a ${width}px phone `
            + "(wrap it, or put it in a labelled, focusable scroll container)");
        if (problems.length >= 3) break;
    }
    return problems;
}"""


def overflow_problems(page) -> list[str]:
    """Elements beyond the screen's right edge, outside a labelled scroll container."""
    return page.evaluate(OVERFLOW_JS)


# --------------------------------------------------------------------------
# Dark theme: the animations' controls
# --------------------------------------------------------------------------

DARK_ANIMATION_JS = r"""() => {
    const luminance = (color) => {
        const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        const [r, g, b] = color.match(/[\d.]+/g).slice(0, 3).map((c) => linear(c / 255));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (e) => {
        for (let up = e; up; up = up.parentElement) {
            const color = getComputedStyle(up).backgroundColor;
            const alpha = color.match(/[\d.]+/g)[3];
            if (alpha === undefined || Number(alpha) > 0.5) return color;
        }
        return "rgb(255, 255, 255)";
    };
    const problems = [];
    document.querySelectorAll(".animation").forEach((animation, index) => {
        const name = `animation ${index + 1}`;
        for (const part of animation.querySelectorAll(".anim-buttons, .anim-state")) {
            const panel = background(part);
            if (luminance(panel) > 0.2) {
                problems.push(`${name}: its controls sit on a light panel (${panel}) `
                    + "in the dark theme");
                break;
            }
        }
        for (const radio of animation.querySelectorAll('input[type="radio"]')) {
            if (!getComputedStyle(radio).colorScheme.includes("dark")) {
                problems.push(`${name}: its radio buttons are drawn for a light page`);
                break;
            }
        }
        for (const button of animation.querySelectorAll(".anim-buttons button")) {
            const text = luminance(getComputedStyle(button).color);
            const back = luminance(background(button));
            const ratio = (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05);
            if (ratio < 3) {
                problems.push(`${name}: the "${button.title}" button's icon has `
                    + `contrast ${ratio.toFixed(1)}:1`);
                break;
            }
        }
    });
    return problems;
}"""


def dark_animation_problems(page) -> list[str]:
    """In the dark theme, animation controls on a dark panel, drawn for it."""
    return page.evaluate(DARK_ANIMATION_JS)


# --------------------------------------------------------------------------
# Tap targets on a phone
# --------------------------------------------------------------------------

TAP_TARGET_PX = 44

TAP_TARGETS_JS = r"""(least) => {
    const small = [];
    for (const e of document.querySelectorAll("button, [role=button], input, select")) {
        const box = e.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || e.type === "hidden") continue;
        if (getComputedStyle(e).visibility === "hidden") continue;
        // A radio button or checkbox counts with its label, which also toggles it.
        const label = e.id && document.querySelector(`label[for="${e.id}"]`);
        const height = Math.max(box.height, label ? label.getBoundingClientRect().height : 0);
        if (box.width + 0.5 < least && !label || height + 0.5 < least) {
            const name = e.getAttribute("aria-label") || e.title || e.textContent.trim()
                || e.className;
            small.push(`${e.tagName.toLowerCase()} "${String(name).slice(0, 40)}" is `
                + `${Math.round(box.width)}x${Math.round(height)} px`);
        }
    }
    return small;
}"""


def tap_target_problems(page) -> list[str]:
    """Buttons and form controls smaller than 44 x 44 px (a fingertip)."""
    small = page.evaluate(TAP_TARGETS_JS, TAP_TARGET_PX)
    if not small:
        return []
    shown = "; ".join(small[:3])
    return [f"{len(small)} tap target(s) under {TAP_TARGET_PX} px, e.g. {shown}"]
