/** antd's Alert, imported only lazily (page banners) so that it gets a chunk of its own. */
export { Alert } from 'antd';
