/**
 * The diff's keyboard shortcut: Ctrl+Shift+D (⌘⇧D on macOS) runs it while the screen is open.
 * The label is what the button's title shows.
 */
import { onBeforeUnmount, onMounted } from 'vue';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const DIFF_SHORTCUT_LABEL = MAC ? '⌘⇧D' : 'Ctrl+Shift+D';

export function isDiffShortcut(event: KeyboardEvent): boolean {
  return (MAC ? event.metaKey : event.ctrlKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'd';
}

export function useDiffShortcut(run: () => void): void {
  const onKeydown = (event: KeyboardEvent) => {
    if (!isDiffShortcut(event) || event.repeat) return;
    event.preventDefault();
    run();
  };
  onMounted(() => window.addEventListener('keydown', onKeydown));
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown));
}
