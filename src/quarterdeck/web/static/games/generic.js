// The drawing used for a game that has no module of its own yet: the state as readable JSON.
// Every game stays playable through the action list beside the board.
export function draw(ctx) {
  const box = document.createElement("pre");
  box.className = "generic-state";
  box.textContent = JSON.stringify(ctx.state, null, 1);
  return box;
}
