import type { Domain } from './domain.entity.js';
import type { DomainListRow } from './domain.repository.js';
import type {
  CreatedDomain,
  DomainListItem,
  DomainSettingsType,
  DomainType,
} from './domain.type.js';

function settings(d: Pick<Domain, 'settings'>): DomainSettingsType {
  const s = d.settings;
  return {
    send_paused: s.send_paused,
    track_clicks: s.track_clicks,
    track_opens: s.track_opens,
    track_unsubscribe: s.track_unsubscribe,
    track_unsubscribe_html: s.track_unsubscribe_html,
    track_unsubscribe_plain: s.track_unsubscribe_plain,
    track_content: s.track_content,
    custom_tracking_enabled: s.custom_tracking_enabled,
    custom_tracking_subdomain: s.custom_tracking_subdomain,
    precedence_bulk: s.precedence_bulk,
    ignore_duplicated_recipients: s.ignore_duplicated_recipients,
  };
}

/**
 * `notQueued` is the domain's count of accepted messages not yet handed to delivery; the service
 * loads it (DomainService.list, notQueuedOf), the mappers only place it.
 */
function core(d: DomainListRow, notQueued: number) {
  return {
    id: d.id,
    name: d.name,
    dkim: d.dkim,
    spf: d.spf,
    tracking: d.tracking,
    is_verified: d.is_verified,
    is_dns_active: d.is_dns_active,
    has_not_queued_messages: notQueued > 0,
    not_queued_messages_count: notQueued,
  };
}

export function toDomainListItem(d: DomainListRow, notQueued: number): DomainListItem {
  return {
    ...core(d, notQueued),
    is_cname_verified: d.is_cname_verified,
    is_cname_active: d.is_cname_verified && d.settings.custom_tracking_enabled,
    // Tracking needs a verified domain: links and pixels are served under its name.
    is_tracking_allowed: d.is_verified,
    domain_settings: settings(d),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toDomain(d: Domain, notQueued: number): DomainType {
  return { ...toDomainListItem(d, notQueued), mx: d.mx };
}

/** A domain just created has no messages, so its counts and totals are empty without a query. */
export function toCreatedDomain(d: Domain): CreatedDomain {
  const s = d.settings;
  return {
    ...core(d, 0),
    mx: d.mx,
    domain_settings: {
      ...settings(d),
      track_unsubscribe_html_enabled: s.track_unsubscribe_html_enabled,
      track_unsubscribe_plain_enabled: s.track_unsubscribe_plain_enabled,
      return_path_subdomain: s.return_path_subdomain,
      inbound_routing_enabled: s.inbound_routing_enabled,
      inbound_routing_subdomain: s.inbound_routing_subdomain,
    },
    can: { manage: true },
    totals: [],
  };
}
