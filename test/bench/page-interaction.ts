/**
 * One user interaction timed inside the page (a live-browser.ts page), on the page's own clock:
 * from the moment the action is done (a click, a select's change, text typed into a field, the
 * location hash set) until the DOM shows its result, and then until the frame that shows it has
 * been painted (the next animation frame, and the task after it: what the user sees). The driver
 * says what "shows its result" means as conditions on the DOM, checked on every DOM mutation, so
 * the measure ends at the mutation that made them true, not at a poll.
 *
 * Before acting it checks the conditions are not already true: a measure that could end at once
 * would time nothing.
 *
 * A `press` is a real mouse click (DevTools' Input domain) timed from the click event's own time
 * stamp, the moment the browser sent it: like Interaction to Next Paint, it counts the wait
 * behind whatever task the page was running when the user clicked, which an action done from
 * inside the page (the other kinds) cannot see, since it runs only once the page is free.
 */
import type { BenchPage } from './live-browser.ts';

/** What the user does. Selectors are CSS selectors of one element. */
export type PageAction =
  | { click: string }
  /** A real mouse click in the middle of the element, timed from the event's time stamp. */
  | { press: string }
  | { select: string; value: string }
  | { type: string; value: string }
  | { hash: string }
  /** Nothing: waits for the conditions (unmeasured set-up). */
  | { wait: true };

/** A fact about the DOM: the element exists and (when given) its text or attribute compares so. */
export interface DomCondition {
  selector: string;
  /** Read this attribute instead of the element's text. */
  attribute?: string;
  equals?: string;
  notEquals?: string;
  contains?: string;
}

/** The page-side times of one interaction, in ms. */
export interface InteractionTimes {
  /** Until the DOM met every condition. */
  shownMs: number;
  /** Until the frame showing it was painted. */
  paintedMs: number;
}

interface InteractionArgs {
  action: PageAction;
  until: readonly DomCondition[];
  timeoutMs: number;
}

/**
 * The page's side, `window.__kubedriftInteract(args)`, as plain JavaScript (this TypeScript has
 * no DOM types): checks the conditions on every mutation from the action on.
 */
const INTERACT_SCRIPT = `(() => {
  const find = (selector) => {
    const element = document.querySelector(selector);
    if (!element) throw new Error('no element matches ' + selector);
    return element;
  };
  const holds = (condition) => {
    const element = document.querySelector(condition.selector);
    if (!element) return false;
    const value = condition.attribute === undefined ? (element.textContent ?? '') : element.getAttribute(condition.attribute);
    if (value === null) return false;
    if (condition.equals !== undefined && value !== condition.equals) return false;
    if (condition.notEquals !== undefined && value === condition.notEquals) return false;
    return condition.contains === undefined || value.toLowerCase().includes(condition.contains.toLowerCase());
  };
  const act = (action) => {
    if ('click' in action) find(action.click).click();
    else if ('select' in action) {
      const select = find(action.select);
      select.value = action.value;
      if (select.value !== action.value) throw new Error(action.select + ' has no option ' + action.value);
      select.dispatchEvent(new Event('change', { bubbles: true }));
    } else if ('type' in action) {
      const input = find(action.type);
      input.value = action.value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else if ('hash' in action) window.location.hash = action.hash;
  };
  window.__kubedriftInteract = ({ action, until, timeoutMs }) => {
    const done = () => until.every(holds);
    if ('wait' in action && done()) return Promise.resolve({ shownMs: 0, paintedMs: 0 });
    if (done()) return Promise.reject(new Error('the page already showed ' + JSON.stringify(until) + ' before ' + JSON.stringify(action)));
    return new Promise((resolve, reject) => {
      let shownAt = null;
      let startedAt = null;
      if ('press' in action) {
        const target = find(action.press);
        const pressed = (event) => {
          if (!event.isTrusted || !target.contains(event.target)) return;
          window.removeEventListener('click', pressed, true);
          startedAt = event.timeStamp;
        };
        window.addEventListener('click', pressed, true);
      }
      const observer = new MutationObserver(() => {
        if (shownAt !== null || startedAt === null || !done()) return;
        shownAt = performance.now();
        observer.disconnect();
        clearTimeout(timer);
        // The frame that shows it: the next animation frame, and the task after its paint.
        requestAnimationFrame(() => setTimeout(() => resolve({ shownMs: shownAt - startedAt, paintedMs: performance.now() - startedAt }), 0));
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        const unmet = until.filter((condition) => !holds(condition));
        reject(new Error('after ' + JSON.stringify(action) + ' the page did not show ' + JSON.stringify(unmet) + ' within ' + timeoutMs + ' ms'));
      }, timeoutMs);
      observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
      if ('press' in action) return;
      startedAt = performance.now();
      try {
        act(action);
      } catch (error) {
        observer.disconnect();
        clearTimeout(timer);
        reject(error);
      }
    });
  };
})();`;

/** Arms a `press`: its measure, pending, is kept for `pressedInPage` to wait for. */
const ARM_SCRIPT = `(() => {
  window.__kubedriftArm = (args) => {
    const measure = window.__kubedriftInteract(args);
    measure.catch(() => undefined);
    window.__kubedriftArmed = measure;
  };
})();`;

/** Installs the page's side; call before the page navigates to the app. */
export async function installInteractions(page: BenchPage): Promise<void> {
  await page.addInitScript(INTERACT_SCRIPT);
  await page.addInitScript(ARM_SCRIPT);
}

function interactInPage(args: InteractionArgs): Promise<InteractionTimes> {
  const run = (globalThis as unknown as { __kubedriftInteract?: (args: InteractionArgs) => Promise<InteractionTimes> }).__kubedriftInteract;
  if (!run) throw new Error('the page has no __kubedriftInteract: call installInteractions before it loads');
  return run(args);
}

function armInPage(args: InteractionArgs): void {
  const arm = (globalThis as unknown as { __kubedriftArm?: (args: InteractionArgs) => void }).__kubedriftArm;
  if (!arm) throw new Error('the page has no __kubedriftArm: call installInteractions before it loads');
  arm(args);
}

function pressedInPage(): Promise<InteractionTimes> {
  const armed = (globalThis as unknown as { __kubedriftArmed?: Promise<InteractionTimes> }).__kubedriftArmed;
  if (!armed) throw new Error('no press was armed');
  return armed;
}

/** Does `action` in the page and times it until `until` all hold (see the file comment). */
export async function interact(page: BenchPage, action: PageAction, until: readonly DomCondition[], timeoutMs = 30_000): Promise<InteractionTimes> {
  if (!('press' in action)) return page.evaluate(interactInPage, { action, until, timeoutMs });
  // Armed before the click is sent, so the page's listener and observer see it whatever it waits behind.
  await page.evaluate(armInPage, { action, until, timeoutMs });
  await page.mouseClick(action.press);
  return page.evaluate(pressedInPage);
}

/** Waits (unmeasured) until `until` all hold; throws with what is missing after `timeoutMs`. */
export async function waitForDom(page: BenchPage, until: readonly DomCondition[], timeoutMs: number): Promise<void> {
  await page.evaluate(interactInPage, { action: { wait: true }, until, timeoutMs });
}

/** Reads an element's text or attribute (null when there is no such element or attribute). */
export function readDom(page: BenchPage, selector: string, attribute?: string): Promise<string | null> {
  return page.evaluate(
    ({ selector: css, attribute: name }) => {
      type Found = { textContent: string | null; getAttribute(name: string): string | null } | null;
      const element = (globalThis as unknown as { document: { querySelector(css: string): Found } }).document.querySelector(css);
      if (!element) return null;
      return name === undefined ? (element.textContent ?? '') : element.getAttribute(name);
    },
    { selector, ...(attribute === undefined ? {} : { attribute }) },
  );
}
