import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyFavicon,
  applyTheme,
  mixColors,
  parseHexColor,
  primaryOf,
  storedThemeVariables,
  themeVariables,
} from './theme.ts';

beforeEach(() => localStorage.clear());

describe('colour maths', () => {
  it('reads long and short hex colours and refuses anything else', () => {
    expect(parseHexColor('#1ab394')).toEqual([26, 179, 148]);
    expect(parseHexColor('FFF')).toEqual([255, 255, 255]);
    expect(parseHexColor('teal')).toBeUndefined();
  });

  it('mixes a weight of the other colour into each channel', () => {
    expect(mixColors('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mixColors('#1ab394', '#ffffff', 0)).toBe('#1ab394');
    expect(mixColors('#1ab394', '#000000', 1)).toBe('#000000');
  });

  it('derives light (70 % white), dark (20 % black) and menu hover (90 % white) from the primary colour', () => {
    // 26,179,148 → light 26*.3+255*.7=186.3, 179*.3+178.5=232.2, 148*.3+178.5=222.9
    expect(themeVariables('#1ab394')).toEqual({
      '--color-primary': '#1ab394',
      '--color-primary-light': '#bae8df',
      '--color-primary-dark': '#158f76',
      '--menu-hover': '#e8f7f4',
    });
    expect(themeVariables('#FF0000')['--color-primary-dark']).toBe('#cc0000');
  });

  it('falls back to #1ab394 when the settings have no usable primary colour', () => {
    expect(primaryOf({ theme_info: { colors: { '--color-primary': '#336699' } } })).toBe('#336699');
    expect(primaryOf({ theme_info: { colors: { '--color-primary': 'nonsense' } } })).toBe('#1ab394');
    expect(primaryOf({ theme_info: {} })).toBe('#1ab394');
    expect(themeVariables('nonsense')['--color-primary']).toBe('#1ab394');
  });
});

describe('applying the theme', () => {
  it('sets the CSS variables and keeps them in local storage for the next start', () => {
    applyTheme(themeVariables('#336699'));
    expect(document.documentElement.style.getPropertyValue('--color-primary')).toBe('#336699');
    expect(document.documentElement.style.getPropertyValue('--color-primary-light')).toBe(
      mixColors('#336699', '#ffffff', 0.7),
    );
    expect(storedThemeVariables()?.['--color-primary']).toBe('#336699');
  });

  it('points the page icon at the interface favicon', () => {
    applyFavicon('/media/custom.ico');
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('/media/custom.ico');
  });
});
