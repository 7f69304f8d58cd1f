import type { ITerminalOptions, ITheme } from '@xterm/xterm';

/**
 * The luna preferences a terminal applies (`PREFERENCES.luna.command_line` in packages/contract):
 * font size, colour theme, Backspace sent as Ctrl+H, right click pastes at once.
 */
export interface TerminalPrefs {
  fontSize: number;
  theme: string;
  backspaceAsCtrlH: boolean;
  rightClickPaste: boolean;
}

export const DEFAULT_PREFS: TerminalPrefs = {
  fontSize: 14,
  theme: 'default',
  backspaceAsCtrlH: false,
  rightClickPaste: false,
};

const THEMES: Record<string, ITheme> = {
  default: { background: '#1f1b1b', foreground: '#ffffff', cursor: '#ffffff' },
  solarized_dark: {
    background: '#002b36',
    foreground: '#839496',
    cursor: '#93a1a1',
    black: '#073642',
    red: '#dc322f',
    green: '#859900',
    yellow: '#b58900',
    blue: '#268bd2',
    magenta: '#d33682',
    cyan: '#2aa198',
    white: '#eee8d5',
  },
  solarized_light: {
    background: '#fdf6e3',
    foreground: '#657b83',
    cursor: '#586e75',
    selectionBackground: '#eee8d5',
    black: '#073642',
    red: '#dc322f',
    green: '#859900',
    yellow: '#b58900',
    blue: '#268bd2',
    magenta: '#d33682',
    cyan: '#2aa198',
    white: '#eee8d5',
  },
  dracula: {
    background: '#282a36',
    foreground: '#f8f8f2',
    cursor: '#f8f8f2',
    red: '#ff5555',
    green: '#50fa7b',
    yellow: '#f1fa8c',
    blue: '#bd93f9',
    magenta: '#ff79c6',
    cyan: '#8be9fd',
  },
  monokai: {
    background: '#272822',
    foreground: '#f8f8f2',
    cursor: '#f8f8f0',
    red: '#f92672',
    green: '#a6e22e',
    yellow: '#f4bf75',
    blue: '#66d9ef',
    magenta: '#ae81ff',
    cyan: '#a1efe4',
  },
};

/** The saved preferences (`GET /api/v1/users/preference/?category=luna`), defaults where missing or out of bounds. */
export function prefsOf(data: unknown): TerminalPrefs {
  const cl = ((data as { command_line?: Record<string, unknown> } | null)?.command_line ?? {}) as Record<
    string,
    unknown
  >;
  const size = Number(cl.character_terminal_font_size);
  const theme = typeof cl.terminal_theme_name === 'string' && cl.terminal_theme_name in THEMES;
  return {
    fontSize: Number.isInteger(size) && size >= 8 && size <= 36 ? size : DEFAULT_PREFS.fontSize,
    theme: theme ? (cl.terminal_theme_name as string) : DEFAULT_PREFS.theme,
    backspaceAsCtrlH: cl.is_backspace_as_ctrl_h === true,
    rightClickPaste: cl.is_right_click_quickly_paste === true,
  };
}

export function xtermOptions(p: TerminalPrefs): ITerminalOptions {
  return {
    fontSize: p.fontSize,
    fontFamily: 'monaco, Consolas, "Lucida Console", monospace',
    theme: THEMES[p.theme] ?? THEMES.default,
    cursorBlink: true,
    scrollback: 5000,
    allowProposedApi: true,
  };
}

/** What a key sequence becomes before it is sent: DEL (Backspace) as Ctrl+H when the user wants it. */
export function outgoingKeys(data: string, p: TerminalPrefs): string {
  return p.backspaceAsCtrlH ? data.replaceAll('\x7f', '\x08') : data;
}
