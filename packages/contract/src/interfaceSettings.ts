/**
 * Settings › Interface (licensed): the images a site may replace, each with the one size it must
 * have (spec: favicon 16x16, logos 185x55 and 82x82, login image 492x472), and the themes.
 */
export const INTERFACE_IMAGES = {
  favicon: { width: 16, height: 16 },
  logo_index: { width: 185, height: 55 },
  logo_logout: { width: 82, height: 82 },
  login_image: { width: 492, height: 472 },
} as const;
export type InterfaceImage = keyof typeof INTERFACE_IMAGES;

/** Image types accepted (never SVG: it can carry script); detected from the bytes, not the name. */
export const INTERFACE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/x-icon'] as const;
export const INTERFACE_IMAGE_MAX_BYTES = 512 * 1024;

export const INTERFACE_THEMES = [
  { name: 'classic_green', primary: '#1ab394' },
  { name: 'classic_blue', primary: '#1890ff' },
  { name: 'auroral_green', primary: '#0aa27f' },
  { name: 'deep_blue', primary: '#1a4ec0' },
  { name: 'violet', primary: '#7b55c8' },
] as const;
