/** The parts of the `radius` package (node-radius 1.1, no types of its own) that client.ts uses. */
declare module 'radius' {
  interface EncodeArgs {
    code: string;
    secret: string;
    identifier?: number;
    attributes: [string, string | number | Buffer][];
    add_message_authenticator?: boolean;
  }
  const radius: {
    encode(args: EncodeArgs): Buffer;
  };
  export default radius;
}
