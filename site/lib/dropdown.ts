/** How far, in px, to move a dropdown panel sideways so it lies inside the viewport with
 * `margin` to spare on each side: 0 when it already does; a panel wider than the room is
 * lined up with the left margin (it then wraps or scrolls inside, never off the left). The
 * header's panels open below their toggles, which sit anywhere on a wrapping menu row, so
 * only the browser can tell where one would land. */
export function nudgeIntoView(left: number, right: number, viewportWidth: number, margin = 8): number {
  if (right - left > viewportWidth - 2 * margin) return margin - left;
  if (right > viewportWidth - margin) return viewportWidth - margin - right;
  if (left < margin) return margin - left;
  return 0;
}
