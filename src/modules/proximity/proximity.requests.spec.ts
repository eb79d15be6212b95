import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { LOCATION_PING_BODY_SCHEMA, LOCATION_SETTINGS_BODY_SCHEMA, locationPingRequest, locationSettingsRequest } from './proximity.requests';

describe('the location routes’ body schemas agree with their readers', () => {
  it('given location-ping bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(LOCATION_PING_BODY_SCHEMA, locationPingRequest, {
      valid: { lat: 52.52, lon: 13.405, accuracy: 12, device_id: 'phone' },
      candidates: { lat: [90, 90.1, -90.1], lon: [180, 180.5, -181], accuracy: [0, -0.5, 3.2], device_id: ['d'.repeat(200), 'd'.repeat(201)] },
    });
  });

  it('given location-settings bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(LOCATION_SETTINGS_BODY_SCHEMA, locationSettingsRequest, { valid: { location_sharing_enabled: false } });
  });
});
