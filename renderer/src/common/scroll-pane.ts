/**
 * Brings `el` to the top of the pane that scrolls it (the nearest ancestor that scrolls), never
 * scrolling the window: scrollIntoView would also move the whole shell.
 */
export function scrollToTopOfPane(el: HTMLElement): void {
  for (let pane = el.parentElement; pane; pane = pane.parentElement) {
    const { overflowY } = getComputedStyle(pane);
    if (overflowY !== 'auto' && overflowY !== 'scroll') continue;
    pane.scrollTo?.({ top: pane.scrollTop + el.getBoundingClientRect().top - pane.getBoundingClientRect().top, behavior: 'smooth' });
    return;
  }
}
