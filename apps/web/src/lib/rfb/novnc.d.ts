/** The part of noVNC's RFB client (`@novnc/novnc`, core/rfb.js) the pages use; the package has no types. */
declare module '@novnc/novnc' {
  export default class RFB extends EventTarget {
    constructor(target: HTMLElement, urlOrChannel: string | object, options?: { shared?: boolean });
    viewOnly: boolean;
    scaleViewport: boolean;
    resizeSession: boolean;
    clipViewport: boolean;
    focusOnClick: boolean;
    background: string;
    disconnect(): void;
    focus(): void;
    clipboardPasteFrom(text: string): void;
    sendCtrlAltDel(): void;
  }
}
