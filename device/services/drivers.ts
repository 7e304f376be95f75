// The client libraries of the service tests and engines, loaded the first time they are used. They
// are large (the MongoDB driver alone is megabytes): loaded at start they would double the daemon's
// start time and add tens of MB of memory on a unit where most services are off.
export const drivers = {
  pg: () => import('pg').then((m) => m.default),
  mysql: () => import('mysql2/promise').then((m) => m.default),
  tedious: () => import('tedious'),
  mongodb: () => import('mongodb'),
  nodemailer: () => import('nodemailer').then((m) => m.default),
  mqtt: () => import('mqtt').then((m) => m.default),
  undici: () => import('undici'),
  ftp: () => import('basic-ftp'),
  socks: () => import('socks'),
};
