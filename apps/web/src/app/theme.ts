import type { ThemeConfig } from 'antd';
import { PRIMARY_COLOR } from '@gatehouse/contract';

/** The Ant Design theme from the interface colour (spec 01 §4 "Theme" refines this in the shell). */
export function antdTheme(primary: string = PRIMARY_COLOR): ThemeConfig {
  return { token: { colorPrimary: primary, borderRadius: 4 } };
}
