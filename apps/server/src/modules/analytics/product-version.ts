import serverPackage from '../../../package.json' with { type: 'json' };

/** The server's version, written into every data package. */
export const PRODUCT_VERSION: string = serverPackage.version;
