import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { initI18nWith } from '../../lib/i18n/index.ts';
import en from '../../lib/i18n/locales/en.ts';

/** What antd needs from a browser that jsdom lacks, and the English catalogue. */
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
const computed = window.getComputedStyle.bind(window);
// jsdom does not implement pseudo-element styles, which antd measures for scrollbars.
window.getComputedStyle = (elt: Element) => computed(elt);

// antd in jsdom is slow: a form filled key by key takes seconds.
vi.setConfig({ testTimeout: 30_000 });
// findBy*/waitFor give up after 1 s by default: too short for antd on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });
initI18nWith('en', en);
afterEach(() => {
  cleanup();
  localStorage.clear();
});
