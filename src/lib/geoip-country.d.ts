// geoip-country ships no types; only the lookup this module uses is declared.
declare module 'geoip-country' {
  interface GeoipCountry {
    lookup(ip: string): { country: string } | null;
  }
  const geoip: GeoipCountry;
  export default geoip;
}
