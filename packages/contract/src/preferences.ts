/**
 * Per-user preferences (`/api/v1/users/preference/?category=...`): what each client reads. The
 * server validates and stores them; the console builds its forms from the same list. `lina`'s
 * secret key (the export password) is written only, and read back as `has_secret_key`.
 */
export const PREFERENCE_CATEGORIES = ['luna', 'koko', 'lina'] as const;
export type PreferenceCategory = (typeof PREFERENCE_CATEGORIES)[number];

export type PreferenceField =
  | { kind: 'boolean'; default: boolean }
  | { kind: 'number'; default: number; min: number; max: number }
  | { kind: 'choice'; default: string; choices: readonly string[] }
  | { kind: 'multi'; default: readonly string[]; choices: readonly string[] };

/** category -> group -> field. */
export const PREFERENCES: Record<
  Exclude<PreferenceCategory, 'lina'>,
  Record<string, Record<string, PreferenceField>>
> = {
  luna: {
    basic: { is_async_asset_tree: { kind: 'boolean', default: true } },
    graphics: {
      rdp_resolution: {
        kind: 'choice',
        default: 'auto',
        choices: ['auto', '1024x768', '1366x768', '1600x900', '1920x1080'],
      },
      keyboard_layout: {
        kind: 'choice',
        default: 'en-us-qwerty',
        choices: [
          'en-us-qwerty',
          'en-gb-qwerty',
          'ja-jp-qwerty',
          'fr-fr-azerty',
          'fr-ch-qwertz',
          'fr-be-azerty',
          'tr-tr-qwerty',
        ],
      },
      rdp_client_option: {
        kind: 'multi',
        default: ['full_screen'],
        choices: ['full_screen', 'multi_screen', 'drives_redirect'],
      },
      applet_connection_method: { kind: 'choice', default: 'web', choices: ['web', 'client'] },
    },
    command_line: {
      character_terminal_font_size: { kind: 'number', default: 14, min: 8, max: 36 },
      terminal_theme_name: {
        kind: 'choice',
        default: 'default',
        choices: ['default', 'solarized_dark', 'solarized_light', 'dracula', 'monokai'],
      },
      is_backspace_as_ctrl_h: { kind: 'boolean', default: false },
      is_right_click_quickly_paste: { kind: 'boolean', default: false },
    },
  },
  koko: {
    basic: { file_name_conflict_resolution: { kind: 'choice', default: 'replace', choices: ['replace', 'suffix'] } },
  },
};

/** The lina export password: between these lengths, entered twice. */
export const PREFERENCE_SECRET_MIN = 6;
export const PREFERENCE_SECRET_MAX = 128;
