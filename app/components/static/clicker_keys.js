// Clicker mode's keys (app/components/clicker_keys.py): Streamlit's key shortcuts ignore a key
// pressed while an input has the focus, so after a click on a toggle (Present, the quiz) a
// clicker's Page Down did nothing. A toggle or radio that keeps the focus gives it up at every
// run of the lesson strip; a text box never does (its typing stays its own).
export default function () {
  const active = document.activeElement;
  if (active && active.tagName === "INPUT" && (active.type === "checkbox" || active.type === "radio")) {
    active.blur();
  }
}
