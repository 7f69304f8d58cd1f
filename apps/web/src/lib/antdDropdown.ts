/** antd's Dropdown, imported only by `LazyDropdown` so that it gets a chunk of its own. */
export { Dropdown } from 'antd';
