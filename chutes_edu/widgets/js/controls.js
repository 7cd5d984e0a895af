// The explorers' accessible controls (chutes_edu/widgets/controls.py): one small ES module for
// anywidget, no build step. Each widget says which kind it is:
//
// - "slider": a native <input type="range"> with a <label> (its accessible name, unit included),
//   aria-valuetext ("7 faces"), the value shown beside it; arrows, Page Up/Down, Home and End
//   move it. ipywidgets' own sliders give a screen reader no name (ipywidgets issue 2650).
// - "picture": an <img> whose alt text comes with every new picture.
// - "live": a polite live region: a screen reader reads its new text after a change, once.

let counter = 0;

function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

function sliderText(model, position) {
  const labels = model.get("labels");
  if (labels.length) return labels[position] ?? "";
  const value = Number(position);
  const text = value.toFixed(model.get("decimals"));
  const unit = model.get("unit");
  return unit ? `${text} ${unit}` : text;
}

function slider(model, el) {
  el.classList.add("chutes-slider");
  const id = uid("chutes-range");
  const label = document.createElement("label");
  label.htmlFor = id;
  const input = document.createElement("input");
  input.type = "range";
  input.id = id;
  const shown = document.createElement("span");
  shown.className = "chutes-slider-value";
  shown.setAttribute("aria-hidden", "true"); // the input's aria-valuetext says it already
  el.append(label, input, shown);

  const labelled = () => model.get("labels").length > 0;
  const position = () => (labelled() ? model.get("index") : model.get("value"));
  const draw = () => {
    label.textContent = model.get("description");
    if (labelled()) {
      input.min = "0";
      input.max = String(Math.max(model.get("labels").length - 1, 0));
      input.step = "1";
    } else {
      input.min = String(model.get("min"));
      input.max = String(model.get("max"));
      input.step = String(model.get("step"));
    }
    input.value = String(position());
    input.disabled = model.get("disabled");
    const text = sliderText(model, position());
    input.setAttribute("aria-valuetext", text);
    shown.textContent = text;
  };
  const send = () => {
    const value = Number(input.value);
    input.setAttribute("aria-valuetext", sliderText(model, value));
    shown.textContent = sliderText(model, value);
    model.set(labelled() ? "index" : "value", value);
    model.save_changes();
  };
  input.addEventListener("input", () => {
    if (model.get("continuous_update")) send();
    else shown.textContent = sliderText(model, Number(input.value));
  });
  input.addEventListener("change", () => {
    if (!model.get("continuous_update")) send();
  });
  const names = ["value", "index", "labels", "min", "max", "step", "description", "unit",
                 "decimals", "disabled"];
  for (const name of names) model.on(`change:${name}`, draw);
  draw();
  return () => {
    for (const name of names) model.off(`change:${name}`, draw);
  };
}

function picture(model, el) {
  el.classList.add("chutes-picture");
  const img = document.createElement("img");
  el.append(img);
  let url = null;
  const draw = () => {
    const bytes = model.get("value");
    const next = URL.createObjectURL(new Blob([bytes], { type: `image/${model.get("format")}` }));
    const old = url;
    url = next;
    img.alt = model.get("alt");
    img.width = model.get("width");
    img.height = model.get("height");
    img.src = next;
    if (old) img.addEventListener("load", () => URL.revokeObjectURL(old), { once: true });
  };
  const describe = () => {
    img.alt = model.get("alt");
  };
  model.on("change:value", draw);
  model.on("change:alt", describe);
  draw();
  return () => {
    model.off("change:value", draw);
    model.off("change:alt", describe);
    if (url) URL.revokeObjectURL(url);
  };
}

function live(model, el) {
  el.classList.add("chutes-live");
  el.setAttribute("role", "status");
  el.setAttribute("aria-live", "polite");
  el.setAttribute("aria-atomic", "true");
  const draw = () => {
    el.classList.toggle("chutes-visually-hidden", !model.get("visible"));
    el.textContent = model.get("text");
  };
  model.on("change:text", draw);
  model.on("change:visible", draw);
  draw();
  return () => {
    model.off("change:text", draw);
    model.off("change:visible", draw);
  };
}

const KINDS = { slider, picture, live };

export default {
  render({ model, el }) {
    return KINDS[model.get("_kind")](model, el);
  },
};
