/** socket.io rooms: a device socket joins the rooms of everything it shows. */
export const rooms = {
  device: (tag: string) => `device:${tag}`,
  playlist: (id: string) => `playlist:${id}`,
  board: (id: string) => `board:${id}`,
  flow: (id: string) => `flow:${id}`,
  channel: (id: string) => `channel:${id}`,
};
