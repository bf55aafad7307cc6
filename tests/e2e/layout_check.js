() => {
    // What a person would see go wrong at a screen width (web_browser.py `layout_problems`):
    // anything wider than the viewport (the page scrolls sideways, or a box runs off the edge), a
    // table running out of its section, a field squeezed narrower than 64 px, and a card's
    // numbers that run together (their text boxes overlap or touch), run out of their tile, or
    // out of the card. Measured from the elements' bounding boxes (a number's text by a Range
    // over it, not its tile's box). Returns the problems in words, or [].
    const width = document.documentElement.clientWidth;
    const problems = [];
    const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
        + (el.classList.length ? "." + [...el.classList].join(".") : "");
    if (document.documentElement.scrollWidth > width) {
        problems.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width} px`);
    }
    for (const el of document.querySelectorAll("body *")) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.left < -0.5 || box.right > width + 0.5) {
            const span = `${Math.round(box.left)}..${Math.round(box.right)}`;
            problems.push(`${name(el)} spans ${span} of ${width} px`);
        }
    }
    // a field squeezed by its label to a sliver (what is typed in it cannot be read)
    for (const field of document.querySelectorAll("input, select, textarea")) {
        if (["checkbox", "radio", "range", "hidden", "file"].includes(field.type)) continue;
        const box = field.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.width < 64) problems.push(`${name(field)} is only ${Math.round(box.width)} px wide`);
    }
    for (const table of document.querySelectorAll("section table")) {
        const box = table.getBoundingClientRect();
        const section = table.closest("section").getBoundingClientRect();
        if (box.width && (box.left < section.left - 0.5 || box.right > section.right + 0.5)) {
            const sizes = `${Math.round(box.width)} px in ${Math.round(section.width)} px`;
            const where = name(table.closest("section"));
            problems.push(`${name(table)} in ${where} runs out of its section (${sizes})`);
        }
    }
    const textBox = (el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect();
    };
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
    for (const card of document.querySelectorAll(".card.up")) {
        const cardBox = card.getBoundingClientRect();
        const numbers = [...card.querySelectorAll(".number")]
            .map((el) => [el.textContent, textBox(el), el.getBoundingClientRect()]);
        if (numbers.length !== 4) problems.push(`a card shows ${numbers.length} numbers`);
        numbers.forEach(([text, box, tile], i) => {
            if (!inside(box, tile)) problems.push(`number ${text} runs out of its tile`);
            if (!inside(tile, cardBox)) problems.push(`number ${text} runs out of its card`);
            for (const [other, otherBox] of numbers.slice(i + 1)) {
                if (!apart(box, otherBox)) problems.push(`numbers ${text} and ${other} overlap`);
            }
        });
    }
    return problems;
}
