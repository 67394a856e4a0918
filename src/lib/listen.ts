// Listening on an address, and saying in one line why it could not be done: the address and the
// variable that sets it (src/cli.ts prints the line: no stack trace, exit status 1).

/** An address the server could not listen on: its one line names it and the variable that sets it. */
export class ListenError extends Error {}

export interface ListenAddress {
  host: string;
  port: number;
  /** The variables that set the port and the host. */
  portVariable: string;
  hostVariable: string;
}

/** Why a listen fails, as a person reads it, by the system's error code. */
const LISTEN_FAILURES: Record<string, (address: ListenAddress) => string> = {
  EADDRINUSE: ({ host, port, portVariable }) => `port ${port} on ${host} is in use by another process; set ${portVariable} to another port`,
  EACCES: ({ host, port, portVariable }) => `port ${port} on ${host} needs privileges this process does not have; set ${portVariable} to a port above 1023`,
  EADDRNOTAVAIL: ({ host, hostVariable }) => `${host} is not an address of this machine; set ${hostVariable} to one of its addresses`,
};

/** `listen()`, with its failure turned into a ListenError naming the address and its variable. */
export async function listenOn<T>(what: string, address: ListenAddress, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const failure = LISTEN_FAILURES[(error as NodeJS.ErrnoException).code ?? ''];
    if (!failure) throw error;
    throw new ListenError(`cannot start ${what}: ${failure(address)}`);
  }
}
