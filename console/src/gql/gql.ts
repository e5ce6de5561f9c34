/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleActivity($domain: ID!, $from: String!, $to: String!, $event: [String!], $page: Int!) {\n    activities(domain_id: $domain, date_from: $from, date_to: $to, event: $event, limit: 25, page: $page) {\n      data {\n        id\n        type\n        created_at\n        email {\n          id\n          subject\n          recipient { email }\n        }\n      }\n    }\n  }\n": typeof types.ConsoleActivityDocument,
    "\n  subscription ConsoleLiveActivity($domain: ID!) {\n    activity(domain_id: $domain) {\n      id\n      type\n      created_at\n      email {\n        id\n        subject\n        recipient { email }\n      }\n    }\n  }\n": typeof types.ConsoleLiveActivityDocument,
    "\n  query ConsoleAnalytics($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n    analytics_country(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_name(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_type(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n  }\n": typeof types.ConsoleAnalyticsDocument,
    "\n  query ConsoleBulkEmails($page: Int!) {\n    bulk_emails(limit: 25, page: $page) { id created_at state total_recipients_count suppressed_recipients_count validation_errors_count }\n  }\n": typeof types.ConsoleBulkEmailsDocument,
    "\n  query ConsoleBulkEmail($id: ID!) {\n    bulk_email(bulk_email_id: $id) {\n      id\n      created_at\n      updated_at\n      state\n      total_recipients_count\n      suppressed_recipients_count\n      suppressed_recipients\n      validation_errors_count\n      validation_errors\n      messages_id\n    }\n  }\n": typeof types.ConsoleBulkEmailDocument,
    "mutation ConsoleSendBulk($emails: [JSONObject!]!) { send_bulk_email(emails: $emails) { bulk_email_id } }": typeof types.ConsoleSendBulkDocument,
    "\n  query ConsoleDmarcMonitors {\n    dmarc_monitors(limit: 100, page: 1) { id domain { id name } dmarc_valid dmarc_record wanted_dmarc_record report_address spf_status }\n  }\n": typeof types.ConsoleDmarcMonitorsDocument,
    "mutation ConsoleCreateDmarcMonitor($domain: ID!) { create_dmarc_monitor(domain_id: $domain) { id } }": typeof types.ConsoleCreateDmarcMonitorDocument,
    "\n  query ConsoleDmarcSources($id: ID!, $from: String!, $to: String!) {\n    dmarc_report_sources(monitor_id: $id, date_from: $from, date_to: $to) { report_source reports }\n  }\n": typeof types.ConsoleDmarcSourcesDocument,
    "\n  query ConsoleDomainSettings($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n": typeof types.ConsoleDomainSettingsDocument,
    "\n  mutation ConsoleUpdateDomainSettings(\n    $id: ID!\n    $send_paused: Boolean\n    $track_opens: Boolean\n    $track_clicks: Boolean\n    $track_unsubscribe: Boolean\n    $track_content: Boolean\n    $precedence_bulk: Boolean\n    $ignore_duplicated_recipients: Boolean\n  ) {\n    update_domain_settings(\n      domain_id: $id\n      send_paused: $send_paused\n      track_opens: $track_opens\n      track_clicks: $track_clicks\n      track_unsubscribe: $track_unsubscribe\n      track_content: $track_content\n      precedence_bulk: $precedence_bulk\n      ignore_duplicated_recipients: $ignore_duplicated_recipients\n    ) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n": typeof types.ConsoleUpdateDomainSettingsDocument,
    "\n  query ConsoleDomains {\n    domains(limit: 100, page: 1) {\n      data {\n        id\n        name\n        is_verified\n        is_dns_active\n        created_at\n      }\n    }\n  }\n": typeof types.ConsoleDomainsDocument,
    "\n  mutation ConsoleCreateDomain($name: String!) {\n    create_domain(name: $name) {\n      id\n      name\n    }\n  }\n": typeof types.ConsoleCreateDomainDocument,
    "\n  query ConsoleDnsRecords($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      name\n      is_verified\n      is_dns_active\n      spf\n      dkim\n      is_cname_verified\n      tracking\n      mx\n    }\n    domain_dns_records(domain_id: $id) {\n      id\n      spf { hostname type value }\n      dkim { hostname type value }\n      return_path { hostname type value }\n      custom_tracking { hostname type value }\n      inbound_routing { hostname type value priority }\n    }\n  }\n": typeof types.ConsoleDnsRecordsDocument,
    "\n  mutation ConsoleVerifyDomain($id: ID!) {\n    verify_domain(domain_id: $id) {\n      message\n      data { spf dkim mx rp_cname tracking cname }\n    }\n  }\n": typeof types.ConsoleVerifyDomainDocument,
    "\n  query ConsoleEmails($domain: ID, $status: [String!], $recipient: String, $subject: String, $page: Int!, $limit: Int!) {\n    emails(domain_id: $domain, status: $status, recipient: $recipient, subject: $subject, limit: $limit, page: $page) {\n      id\n      created_at\n      to\n      subject\n      status\n    }\n  }\n": typeof types.ConsoleEmailsDocument,
    "\n  query ConsoleEmail($id: ID!) {\n    email(email_id: $id) {\n      id\n      created_at\n      from\n      from_name\n      to\n      to_name\n      subject\n      status\n      tags\n      message_id\n      interaction\n      html\n      text\n      last_response\n      diagnosis { reason requirement provider explanation }\n      content { raw }\n      activity { id type created_at suppression_reason }\n      webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at }\n    }\n  }\n": typeof types.ConsoleEmailDocument,
    "\n  query ConsoleIdentities($domain: ID) {\n    sender_identities(domain_id: $domain, limit: 100, page: 1) { id email name is_verified reply_to_email resends domain { id name } }\n  }\n": typeof types.ConsoleIdentitiesDocument,
    "\n  mutation ConsoleCreateIdentity($domain: ID!, $email: String!, $name: String, $reply: String) {\n    create_sender_identity(domain_id: $domain, email: $email, name: $name, reply_to_email: $reply) { id email }\n  }\n": typeof types.ConsoleCreateIdentityDocument,
    "mutation ConsoleResendIdentity($id: ID!) { resend_sender_identity(identity_id: $id) { id resends } }": typeof types.ConsoleResendIdentityDocument,
    "mutation ConsoleDeleteIdentity($id: ID!) { delete_sender_identity(identity_id: $id) }": typeof types.ConsoleDeleteIdentityDocument,
    "\n  query ConsoleInbounds($domain: ID!, $page: Int!) {\n    inbounds_page(domain_id: $domain, limit: 25, page: $page) {\n      data { id name address enabled domain_enabled inbound_domain created_at forwards { id type value } }\n      meta { current_page last_page }\n    }\n  }\n": typeof types.ConsoleInboundsDocument,
    "\n  query ConsoleInbound($id: ID!) {\n    inbound(inbound_id: $id) {\n      id name address enabled domain_enabled inbound_domain dns_checked_at created_at\n      domain { id name }\n      catch_filter { type }\n      match_filter { type }\n      forwards { id type value confirmation secret }\n      mxValues { priority target }\n    }\n  }\n": typeof types.ConsoleInboundDocument,
    "\n  mutation ConsoleCreateInbound(\n    $domain: ID!, $name: String!, $forwards: [InboundForwardInput!]!, $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    create_inbound(domain_id: $domain, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name address domain_enabled inbound_domain mxValues { priority target } forwards { id type value confirmation }\n    }\n  }\n": typeof types.ConsoleCreateInboundDocument,
    "\n  mutation ConsoleUpdateInbound(\n    $id: ID!, $name: String, $forwards: [InboundForwardInput!], $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    update_inbound(inbound_id: $id, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name enabled domain_enabled inbound_domain forwards { id type value confirmation secret }\n    }\n  }\n": typeof types.ConsoleUpdateInboundDocument,
    "mutation ConsoleDeleteInbound($id: ID!) { delete_inbound(inbound_id: $id) }": typeof types.ConsoleDeleteInboundDocument,
    "\n  query ConsoleInbox($page: Int!) {\n    captured_emails(limit: 25, page: $page) {\n      data { id email_id from to subject created_at }\n      meta { total }\n    }\n  }\n": typeof types.ConsoleInboxDocument,
    "\n  query ConsoleSandboxMails($page: Int!) {\n    sandbox_mails(limit: 25, page: $page) {\n      data { id kind from to subject created_at }\n      meta { total }\n    }\n  }\n": typeof types.ConsoleSandboxMailsDocument,
    "\n  query ConsoleSandboxMail($id: ID!) {\n    sandbox_mail(mail_id: $id) { id kind from to subject created_at text html }\n  }\n": typeof types.ConsoleSandboxMailDocument,
    "\n  query ConsoleBlocklistMonitors {\n    blocklist_monitors(limit: 100, page: 1) { id name address type blocklisted last_check in_progress }\n  }\n": typeof types.ConsoleBlocklistMonitorsDocument,
    "\n  mutation ConsoleCreateBlocklistMonitor($address: String!, $name: String) {\n    create_blocklist_monitor(address: $address, name: $name) { id }\n  }\n": typeof types.ConsoleCreateBlocklistMonitorDocument,
    "mutation ConsoleDeleteBlocklistMonitor($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }": typeof types.ConsoleDeleteBlocklistMonitorDocument,
    "\n  query ConsoleOverview {\n    overview {\n      sandbox\n      waiting { count more }\n      webhooks_failing\n      setup { key done }\n    }\n  }\n": typeof types.ConsoleOverviewDocument,
    "\n  query ConsoleOverviewCounts($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n  }\n": typeof types.ConsoleOverviewCountsDocument,
    "\n  query ConsoleSandbox {\n    overview { sandbox }\n  }\n": typeof types.ConsoleSandboxDocument,
    "\n  query ConsoleRecipients($domain: ID, $page: Int!) {\n    recipients(domain_id: $domain, limit: 25, page: $page) {\n      data { id email created_at }\n      meta { current_page last_page total }\n    }\n  }\n": typeof types.ConsoleRecipientsDocument,
    "\n  query ConsoleRecipient($id: ID!) {\n    recipient(recipient_id: $id) {\n      id\n      email\n      created_at\n      domain { id name }\n      emails { id subject status created_at }\n    }\n  }\n": typeof types.ConsoleRecipientDocument,
    "mutation ConsoleDeleteRecipient($id: ID!) { delete_recipient(recipient_id: $id) }": typeof types.ConsoleDeleteRecipientDocument,
    "\n  query ConsoleSmsNumbers {\n    sms_numbers_page(limit: 100, page: 1) { data { id telephone_number paused created_at } }\n  }\n": typeof types.ConsoleSmsNumbersDocument,
    "\n  query ConsoleSmsActivity {\n    sms_activity(limit: 50, page: 1) { sms_message_id from to status content created_at }\n  }\n": typeof types.ConsoleSmsActivityDocument,
    "\n  query ConsoleSmtpUsers($domain: ID!) {\n    smtp_users(domain_id: $domain, limit: 100, page: 1) { id name username enabled server port accessed_at }\n  }\n": typeof types.ConsoleSmtpUsersDocument,
    "\n  mutation ConsoleCreateSmtpUser($domain: ID!, $name: String!) {\n    create_smtp_user(domain_id: $domain, name: $name) { id name username password server port }\n  }\n": typeof types.ConsoleCreateSmtpUserDocument,
    "\n  mutation ConsoleToggleSmtpUser($domain: ID!, $id: ID!, $enabled: Boolean!) {\n    update_smtp_user(domain_id: $domain, smtp_user_id: $id, enabled: $enabled) { id enabled }\n  }\n": typeof types.ConsoleToggleSmtpUserDocument,
    "mutation ConsoleDeleteSmtpUser($domain: ID!, $id: ID!) { delete_smtp_user(domain_id: $domain, smtp_user_id: $id) }": typeof types.ConsoleDeleteSmtpUserDocument,
    "\n  query ConsoleSuppressions($domain: ID, $page: Int!) {\n    hard_bounces(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    spam_complaints(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    unsubscribes(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    on_hold_list(domain_id: $domain, limit: 100, page: $page) { id created_at reason on_hold_until recipient { email } }\n    blocklist(domain_id: $domain, limit: 100, page: $page) { id created_at type pattern }\n  }\n": typeof types.ConsoleSuppressionsDocument,
    "mutation ConsoleAddHard($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }": typeof types.ConsoleAddHardDocument,
    "mutation ConsoleAddSpam($d: ID!, $r: [String!]!) { add_spam_complaints(domain_id: $d, recipients: $r) { id } }": typeof types.ConsoleAddSpamDocument,
    "mutation ConsoleAddUnsub($d: ID!, $r: [String!]!) { add_unsubscribes(domain_id: $d, recipients: $r) { id } }": typeof types.ConsoleAddUnsubDocument,
    "mutation ConsoleAddHold($d: ID!, $r: [String!]!) { add_on_hold_list(domain_id: $d, recipients: $r) { id } }": typeof types.ConsoleAddHoldDocument,
    "mutation ConsoleAddBlock($d: ID!, $r: [String!]!) { add_to_blocklist(domain_id: $d, recipients: $r) { id } }": typeof types.ConsoleAddBlockDocument,
    "mutation ConsoleDelHard($d: ID!, $ids: [ID!]) { delete_hard_bounces(domain_id: $d, ids: $ids) }": typeof types.ConsoleDelHardDocument,
    "mutation ConsoleDelSpam($d: ID!, $ids: [ID!]) { delete_spam_complaints(domain_id: $d, ids: $ids) }": typeof types.ConsoleDelSpamDocument,
    "mutation ConsoleDelUnsub($d: ID!, $ids: [ID!]) { delete_unsubscribes(domain_id: $d, ids: $ids) }": typeof types.ConsoleDelUnsubDocument,
    "mutation ConsoleDelHold($d: ID!, $ids: [ID!]) { delete_on_hold_list(domain_id: $d, ids: $ids) }": typeof types.ConsoleDelHoldDocument,
    "mutation ConsoleDelBlock($d: ID!, $ids: [ID!]) { delete_from_blocklist(domain_id: $d, ids: $ids) }": typeof types.ConsoleDelBlockDocument,
    "\n  query ConsoleTemplate($id: ID!) {\n    template(template_id: $id) { id name tags variables subject html text domain { id name } }\n  }\n": typeof types.ConsoleTemplateDocument,
    "\n  mutation ConsoleCreateTemplate($name: String!, $subject: String, $html: String!, $text: String, $auto: Boolean) {\n    create_template(name: $name, subject: $subject, html: $html, text: $text, auto_generate: $auto) { id }\n  }\n": typeof types.ConsoleCreateTemplateDocument,
    "\n  mutation ConsoleUpdateTemplate($id: ID!, $name: String, $subject: String, $html: String, $text: String) {\n    update_template(template_id: $id, name: $name, subject: $subject, html: $html, text: $text) { id name variables }\n  }\n": typeof types.ConsoleUpdateTemplateDocument,
    "\n  mutation ConsoleTemplateTestSend($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $template: String!, $personalization: [PersonalizationInput!]) {\n    send_email(from: $from, to: $to, template_id: $template, personalization: $personalization) {\n      message_id\n      warnings { type }\n    }\n  }\n": typeof types.ConsoleTemplateTestSendDocument,
    "\n  query ConsoleTemplates {\n    templates(limit: 100, page: 1) {\n      data { id name tags updated_at variables }\n    }\n  }\n": typeof types.ConsoleTemplatesDocument,
    "\n  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {\n    send_email(from: $from, to: $to, subject: $subject, text: $text) {\n      message_id\n      message\n      send_paused\n      warnings { type warning recipients { email reasons } }\n    }\n  }\n": typeof types.ConsoleSendTestDocument,
    "\n  query ConsoleTokens($page: Int!) {\n    tokens_page(limit: 25, page: $page) {\n      data { id name status scopes created_at domain_id }\n      meta { last_page }\n    }\n    domains(limit: 100, page: 1) { data { id name } }\n  }\n": typeof types.ConsoleTokensDocument,
    "\n  mutation ConsoleCreateToken($name: String!, $scopes: [String!]!, $domain: ID) {\n    create_token(name: $name, scopes: $scopes, domain_id: $domain) { id name accessToken }\n  }\n": typeof types.ConsoleCreateTokenDocument,
    "\n  mutation ConsoleTokenStatus($id: ID!, $status: String!) {\n    update_token_settings(token_id: $id, status: $status) { id status }\n  }\n": typeof types.ConsoleTokenStatusDocument,
    "mutation ConsoleDeleteToken($id: ID!) { delete_token(token_id: $id) }": typeof types.ConsoleDeleteTokenDocument,
    "\n  query ConsoleUsage {\n    usage {\n      plan\n      retention_days\n      verification_credits\n      api_quota { quota remaining reset }\n    }\n  }\n": typeof types.ConsoleUsageDocument,
    "\n  query ConsoleAccessChoices {\n    domains(limit: 100, page: 1) { data { id name } }\n    templates(limit: 100, page: 1) { data { id name } }\n  }\n": typeof types.ConsoleAccessChoicesDocument,
    "\n  query ConsoleUser($id: ID!) {\n    user(user_id: $id) { id email role permissions domains { id } templates { id } }\n  }\n": typeof types.ConsoleUserDocument,
    "\n  mutation ConsoleUpdateUser($id: ID!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    update_user(user_id: $id, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id role permissions domains { id } templates { id } }\n  }\n": typeof types.ConsoleUpdateUserDocument,
    "\n  query ConsoleUsers {\n    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }\n    invites(limit: 100, page: 1) { id email role created_at }\n  }\n": typeof types.ConsoleUsersDocument,
    "\n  mutation ConsoleInvite($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id email }\n  }\n": typeof types.ConsoleInviteDocument,
    "mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }": typeof types.ConsoleResendInviteDocument,
    "mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }": typeof types.ConsoleDeleteInviteDocument,
    "mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }": typeof types.ConsoleDeleteUserDocument,
    "\n  query ConsoleVerificationLists {\n    email_verification_lists(limit: 100, page: 1) {\n      data {\n        id\n        name\n        total\n        created_at\n        status { name count }\n        statistics { valid catch_all unknown mailbox_not_found syntax_error disposable }\n      }\n    }\n  }\n": typeof types.ConsoleVerificationListsDocument,
    "\n  mutation ConsoleCreateVerificationList($name: String!, $emails: [String!]!) {\n    create_email_verification_list(name: $name, emails: $emails) { id }\n  }\n": typeof types.ConsoleCreateVerificationListDocument,
    "\n  mutation ConsoleVerifyList($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }\n": typeof types.ConsoleVerifyListDocument,
    "\n  mutation ConsoleVerifyEmail($email: String!) { verify_email(email: $email) { status } }\n": typeof types.ConsoleVerifyEmailDocument,
    "\n  query ConsoleWebhookLog($id: ID!, $page: Int!) {\n    webhook_log(webhook_id: $id, limit: 25, page: $page) {\n      data { id type attempted_at status success duration_ms error response_excerpt delivery_id }\n      meta { last_page }\n    }\n  }\n": typeof types.ConsoleWebhookLogDocument,
    "\n  subscription ConsoleWebhookLive($id: ID!) {\n    webhook_deliveries(webhook_id: $id) { id }\n  }\n": typeof types.ConsoleWebhookLiveDocument,
    "\n  mutation ConsoleReplayWebhook($id: ID!, $since: String!) {\n    replay_webhook(webhook_id: $id, since: $since) { replayed }\n  }\n": typeof types.ConsoleReplayWebhookDocument,
    "\n  query ConsoleWebhookDelivery($id: ID!) {\n    webhook_delivery(delivery_id: $id) { id type state attempts last_status body }\n  }\n": typeof types.ConsoleWebhookDeliveryDocument,
    "\n  mutation ConsoleRetryWebhookDelivery($id: ID!) {\n    retry_webhook_delivery(delivery_id: $id) { id state attempts }\n  }\n": typeof types.ConsoleRetryWebhookDeliveryDocument,
    "\n  query ConsoleWebhooks($domain: ID!) {\n    webhooks(domain_id: $domain, limit: 100, page: 1) {\n      data { id name url enabled events }\n    }\n  }\n": typeof types.ConsoleWebhooksDocument,
    "\n  query ConsoleWebhook($id: ID!) {\n    webhook(webhook_id: $id) { id name url enabled events secret domain { id name } }\n  }\n": typeof types.ConsoleWebhookDocument,
    "\n  mutation ConsoleCreateWebhook($domain: ID!, $name: String!, $url: String!, $events: [String!]!, $enabled: Boolean) {\n    create_webhook(domain_id: $domain, name: $name, url: $url, events: $events, enabled: $enabled) { id }\n  }\n": typeof types.ConsoleCreateWebhookDocument,
    "\n  mutation ConsoleUpdateWebhook($id: ID!, $name: String, $url: String, $events: [String!], $enabled: Boolean) {\n    update_webhook(webhook_id: $id, name: $name, url: $url, events: $events, enabled: $enabled) { id name url enabled events }\n  }\n": typeof types.ConsoleUpdateWebhookDocument,
    "\n  mutation ConsoleRotateWebhookSecret($id: ID!) {\n    rotate_webhook_secret(webhook_id: $id) { id secret }\n  }\n": typeof types.ConsoleRotateWebhookSecretDocument,
    "\n  query ConsoleTokenCheck {\n    whoami { account_id }\n  }\n": typeof types.ConsoleTokenCheckDocument,
    "\n  query ConsoleDomainPicker {\n    domain_choices {\n      id\n      name\n    }\n  }\n": typeof types.ConsoleDomainPickerDocument,
};
const documents: Documents = {
    "\n  query ConsoleActivity($domain: ID!, $from: String!, $to: String!, $event: [String!], $page: Int!) {\n    activities(domain_id: $domain, date_from: $from, date_to: $to, event: $event, limit: 25, page: $page) {\n      data {\n        id\n        type\n        created_at\n        email {\n          id\n          subject\n          recipient { email }\n        }\n      }\n    }\n  }\n": types.ConsoleActivityDocument,
    "\n  subscription ConsoleLiveActivity($domain: ID!) {\n    activity(domain_id: $domain) {\n      id\n      type\n      created_at\n      email {\n        id\n        subject\n        recipient { email }\n      }\n    }\n  }\n": types.ConsoleLiveActivityDocument,
    "\n  query ConsoleAnalytics($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n    analytics_country(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_name(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_type(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n  }\n": types.ConsoleAnalyticsDocument,
    "\n  query ConsoleBulkEmails($page: Int!) {\n    bulk_emails(limit: 25, page: $page) { id created_at state total_recipients_count suppressed_recipients_count validation_errors_count }\n  }\n": types.ConsoleBulkEmailsDocument,
    "\n  query ConsoleBulkEmail($id: ID!) {\n    bulk_email(bulk_email_id: $id) {\n      id\n      created_at\n      updated_at\n      state\n      total_recipients_count\n      suppressed_recipients_count\n      suppressed_recipients\n      validation_errors_count\n      validation_errors\n      messages_id\n    }\n  }\n": types.ConsoleBulkEmailDocument,
    "mutation ConsoleSendBulk($emails: [JSONObject!]!) { send_bulk_email(emails: $emails) { bulk_email_id } }": types.ConsoleSendBulkDocument,
    "\n  query ConsoleDmarcMonitors {\n    dmarc_monitors(limit: 100, page: 1) { id domain { id name } dmarc_valid dmarc_record wanted_dmarc_record report_address spf_status }\n  }\n": types.ConsoleDmarcMonitorsDocument,
    "mutation ConsoleCreateDmarcMonitor($domain: ID!) { create_dmarc_monitor(domain_id: $domain) { id } }": types.ConsoleCreateDmarcMonitorDocument,
    "\n  query ConsoleDmarcSources($id: ID!, $from: String!, $to: String!) {\n    dmarc_report_sources(monitor_id: $id, date_from: $from, date_to: $to) { report_source reports }\n  }\n": types.ConsoleDmarcSourcesDocument,
    "\n  query ConsoleDomainSettings($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n": types.ConsoleDomainSettingsDocument,
    "\n  mutation ConsoleUpdateDomainSettings(\n    $id: ID!\n    $send_paused: Boolean\n    $track_opens: Boolean\n    $track_clicks: Boolean\n    $track_unsubscribe: Boolean\n    $track_content: Boolean\n    $precedence_bulk: Boolean\n    $ignore_duplicated_recipients: Boolean\n  ) {\n    update_domain_settings(\n      domain_id: $id\n      send_paused: $send_paused\n      track_opens: $track_opens\n      track_clicks: $track_clicks\n      track_unsubscribe: $track_unsubscribe\n      track_content: $track_content\n      precedence_bulk: $precedence_bulk\n      ignore_duplicated_recipients: $ignore_duplicated_recipients\n    ) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n": types.ConsoleUpdateDomainSettingsDocument,
    "\n  query ConsoleDomains {\n    domains(limit: 100, page: 1) {\n      data {\n        id\n        name\n        is_verified\n        is_dns_active\n        created_at\n      }\n    }\n  }\n": types.ConsoleDomainsDocument,
    "\n  mutation ConsoleCreateDomain($name: String!) {\n    create_domain(name: $name) {\n      id\n      name\n    }\n  }\n": types.ConsoleCreateDomainDocument,
    "\n  query ConsoleDnsRecords($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      name\n      is_verified\n      is_dns_active\n      spf\n      dkim\n      is_cname_verified\n      tracking\n      mx\n    }\n    domain_dns_records(domain_id: $id) {\n      id\n      spf { hostname type value }\n      dkim { hostname type value }\n      return_path { hostname type value }\n      custom_tracking { hostname type value }\n      inbound_routing { hostname type value priority }\n    }\n  }\n": types.ConsoleDnsRecordsDocument,
    "\n  mutation ConsoleVerifyDomain($id: ID!) {\n    verify_domain(domain_id: $id) {\n      message\n      data { spf dkim mx rp_cname tracking cname }\n    }\n  }\n": types.ConsoleVerifyDomainDocument,
    "\n  query ConsoleEmails($domain: ID, $status: [String!], $recipient: String, $subject: String, $page: Int!, $limit: Int!) {\n    emails(domain_id: $domain, status: $status, recipient: $recipient, subject: $subject, limit: $limit, page: $page) {\n      id\n      created_at\n      to\n      subject\n      status\n    }\n  }\n": types.ConsoleEmailsDocument,
    "\n  query ConsoleEmail($id: ID!) {\n    email(email_id: $id) {\n      id\n      created_at\n      from\n      from_name\n      to\n      to_name\n      subject\n      status\n      tags\n      message_id\n      interaction\n      html\n      text\n      last_response\n      diagnosis { reason requirement provider explanation }\n      content { raw }\n      activity { id type created_at suppression_reason }\n      webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at }\n    }\n  }\n": types.ConsoleEmailDocument,
    "\n  query ConsoleIdentities($domain: ID) {\n    sender_identities(domain_id: $domain, limit: 100, page: 1) { id email name is_verified reply_to_email resends domain { id name } }\n  }\n": types.ConsoleIdentitiesDocument,
    "\n  mutation ConsoleCreateIdentity($domain: ID!, $email: String!, $name: String, $reply: String) {\n    create_sender_identity(domain_id: $domain, email: $email, name: $name, reply_to_email: $reply) { id email }\n  }\n": types.ConsoleCreateIdentityDocument,
    "mutation ConsoleResendIdentity($id: ID!) { resend_sender_identity(identity_id: $id) { id resends } }": types.ConsoleResendIdentityDocument,
    "mutation ConsoleDeleteIdentity($id: ID!) { delete_sender_identity(identity_id: $id) }": types.ConsoleDeleteIdentityDocument,
    "\n  query ConsoleInbounds($domain: ID!, $page: Int!) {\n    inbounds_page(domain_id: $domain, limit: 25, page: $page) {\n      data { id name address enabled domain_enabled inbound_domain created_at forwards { id type value } }\n      meta { current_page last_page }\n    }\n  }\n": types.ConsoleInboundsDocument,
    "\n  query ConsoleInbound($id: ID!) {\n    inbound(inbound_id: $id) {\n      id name address enabled domain_enabled inbound_domain dns_checked_at created_at\n      domain { id name }\n      catch_filter { type }\n      match_filter { type }\n      forwards { id type value confirmation secret }\n      mxValues { priority target }\n    }\n  }\n": types.ConsoleInboundDocument,
    "\n  mutation ConsoleCreateInbound(\n    $domain: ID!, $name: String!, $forwards: [InboundForwardInput!]!, $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    create_inbound(domain_id: $domain, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name address domain_enabled inbound_domain mxValues { priority target } forwards { id type value confirmation }\n    }\n  }\n": types.ConsoleCreateInboundDocument,
    "\n  mutation ConsoleUpdateInbound(\n    $id: ID!, $name: String, $forwards: [InboundForwardInput!], $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    update_inbound(inbound_id: $id, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name enabled domain_enabled inbound_domain forwards { id type value confirmation secret }\n    }\n  }\n": types.ConsoleUpdateInboundDocument,
    "mutation ConsoleDeleteInbound($id: ID!) { delete_inbound(inbound_id: $id) }": types.ConsoleDeleteInboundDocument,
    "\n  query ConsoleInbox($page: Int!) {\n    captured_emails(limit: 25, page: $page) {\n      data { id email_id from to subject created_at }\n      meta { total }\n    }\n  }\n": types.ConsoleInboxDocument,
    "\n  query ConsoleSandboxMails($page: Int!) {\n    sandbox_mails(limit: 25, page: $page) {\n      data { id kind from to subject created_at }\n      meta { total }\n    }\n  }\n": types.ConsoleSandboxMailsDocument,
    "\n  query ConsoleSandboxMail($id: ID!) {\n    sandbox_mail(mail_id: $id) { id kind from to subject created_at text html }\n  }\n": types.ConsoleSandboxMailDocument,
    "\n  query ConsoleBlocklistMonitors {\n    blocklist_monitors(limit: 100, page: 1) { id name address type blocklisted last_check in_progress }\n  }\n": types.ConsoleBlocklistMonitorsDocument,
    "\n  mutation ConsoleCreateBlocklistMonitor($address: String!, $name: String) {\n    create_blocklist_monitor(address: $address, name: $name) { id }\n  }\n": types.ConsoleCreateBlocklistMonitorDocument,
    "mutation ConsoleDeleteBlocklistMonitor($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }": types.ConsoleDeleteBlocklistMonitorDocument,
    "\n  query ConsoleOverview {\n    overview {\n      sandbox\n      waiting { count more }\n      webhooks_failing\n      setup { key done }\n    }\n  }\n": types.ConsoleOverviewDocument,
    "\n  query ConsoleOverviewCounts($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n  }\n": types.ConsoleOverviewCountsDocument,
    "\n  query ConsoleSandbox {\n    overview { sandbox }\n  }\n": types.ConsoleSandboxDocument,
    "\n  query ConsoleRecipients($domain: ID, $page: Int!) {\n    recipients(domain_id: $domain, limit: 25, page: $page) {\n      data { id email created_at }\n      meta { current_page last_page total }\n    }\n  }\n": types.ConsoleRecipientsDocument,
    "\n  query ConsoleRecipient($id: ID!) {\n    recipient(recipient_id: $id) {\n      id\n      email\n      created_at\n      domain { id name }\n      emails { id subject status created_at }\n    }\n  }\n": types.ConsoleRecipientDocument,
    "mutation ConsoleDeleteRecipient($id: ID!) { delete_recipient(recipient_id: $id) }": types.ConsoleDeleteRecipientDocument,
    "\n  query ConsoleSmsNumbers {\n    sms_numbers_page(limit: 100, page: 1) { data { id telephone_number paused created_at } }\n  }\n": types.ConsoleSmsNumbersDocument,
    "\n  query ConsoleSmsActivity {\n    sms_activity(limit: 50, page: 1) { sms_message_id from to status content created_at }\n  }\n": types.ConsoleSmsActivityDocument,
    "\n  query ConsoleSmtpUsers($domain: ID!) {\n    smtp_users(domain_id: $domain, limit: 100, page: 1) { id name username enabled server port accessed_at }\n  }\n": types.ConsoleSmtpUsersDocument,
    "\n  mutation ConsoleCreateSmtpUser($domain: ID!, $name: String!) {\n    create_smtp_user(domain_id: $domain, name: $name) { id name username password server port }\n  }\n": types.ConsoleCreateSmtpUserDocument,
    "\n  mutation ConsoleToggleSmtpUser($domain: ID!, $id: ID!, $enabled: Boolean!) {\n    update_smtp_user(domain_id: $domain, smtp_user_id: $id, enabled: $enabled) { id enabled }\n  }\n": types.ConsoleToggleSmtpUserDocument,
    "mutation ConsoleDeleteSmtpUser($domain: ID!, $id: ID!) { delete_smtp_user(domain_id: $domain, smtp_user_id: $id) }": types.ConsoleDeleteSmtpUserDocument,
    "\n  query ConsoleSuppressions($domain: ID, $page: Int!) {\n    hard_bounces(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    spam_complaints(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    unsubscribes(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    on_hold_list(domain_id: $domain, limit: 100, page: $page) { id created_at reason on_hold_until recipient { email } }\n    blocklist(domain_id: $domain, limit: 100, page: $page) { id created_at type pattern }\n  }\n": types.ConsoleSuppressionsDocument,
    "mutation ConsoleAddHard($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }": types.ConsoleAddHardDocument,
    "mutation ConsoleAddSpam($d: ID!, $r: [String!]!) { add_spam_complaints(domain_id: $d, recipients: $r) { id } }": types.ConsoleAddSpamDocument,
    "mutation ConsoleAddUnsub($d: ID!, $r: [String!]!) { add_unsubscribes(domain_id: $d, recipients: $r) { id } }": types.ConsoleAddUnsubDocument,
    "mutation ConsoleAddHold($d: ID!, $r: [String!]!) { add_on_hold_list(domain_id: $d, recipients: $r) { id } }": types.ConsoleAddHoldDocument,
    "mutation ConsoleAddBlock($d: ID!, $r: [String!]!) { add_to_blocklist(domain_id: $d, recipients: $r) { id } }": types.ConsoleAddBlockDocument,
    "mutation ConsoleDelHard($d: ID!, $ids: [ID!]) { delete_hard_bounces(domain_id: $d, ids: $ids) }": types.ConsoleDelHardDocument,
    "mutation ConsoleDelSpam($d: ID!, $ids: [ID!]) { delete_spam_complaints(domain_id: $d, ids: $ids) }": types.ConsoleDelSpamDocument,
    "mutation ConsoleDelUnsub($d: ID!, $ids: [ID!]) { delete_unsubscribes(domain_id: $d, ids: $ids) }": types.ConsoleDelUnsubDocument,
    "mutation ConsoleDelHold($d: ID!, $ids: [ID!]) { delete_on_hold_list(domain_id: $d, ids: $ids) }": types.ConsoleDelHoldDocument,
    "mutation ConsoleDelBlock($d: ID!, $ids: [ID!]) { delete_from_blocklist(domain_id: $d, ids: $ids) }": types.ConsoleDelBlockDocument,
    "\n  query ConsoleTemplate($id: ID!) {\n    template(template_id: $id) { id name tags variables subject html text domain { id name } }\n  }\n": types.ConsoleTemplateDocument,
    "\n  mutation ConsoleCreateTemplate($name: String!, $subject: String, $html: String!, $text: String, $auto: Boolean) {\n    create_template(name: $name, subject: $subject, html: $html, text: $text, auto_generate: $auto) { id }\n  }\n": types.ConsoleCreateTemplateDocument,
    "\n  mutation ConsoleUpdateTemplate($id: ID!, $name: String, $subject: String, $html: String, $text: String) {\n    update_template(template_id: $id, name: $name, subject: $subject, html: $html, text: $text) { id name variables }\n  }\n": types.ConsoleUpdateTemplateDocument,
    "\n  mutation ConsoleTemplateTestSend($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $template: String!, $personalization: [PersonalizationInput!]) {\n    send_email(from: $from, to: $to, template_id: $template, personalization: $personalization) {\n      message_id\n      warnings { type }\n    }\n  }\n": types.ConsoleTemplateTestSendDocument,
    "\n  query ConsoleTemplates {\n    templates(limit: 100, page: 1) {\n      data { id name tags updated_at variables }\n    }\n  }\n": types.ConsoleTemplatesDocument,
    "\n  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {\n    send_email(from: $from, to: $to, subject: $subject, text: $text) {\n      message_id\n      message\n      send_paused\n      warnings { type warning recipients { email reasons } }\n    }\n  }\n": types.ConsoleSendTestDocument,
    "\n  query ConsoleTokens($page: Int!) {\n    tokens_page(limit: 25, page: $page) {\n      data { id name status scopes created_at domain_id }\n      meta { last_page }\n    }\n    domains(limit: 100, page: 1) { data { id name } }\n  }\n": types.ConsoleTokensDocument,
    "\n  mutation ConsoleCreateToken($name: String!, $scopes: [String!]!, $domain: ID) {\n    create_token(name: $name, scopes: $scopes, domain_id: $domain) { id name accessToken }\n  }\n": types.ConsoleCreateTokenDocument,
    "\n  mutation ConsoleTokenStatus($id: ID!, $status: String!) {\n    update_token_settings(token_id: $id, status: $status) { id status }\n  }\n": types.ConsoleTokenStatusDocument,
    "mutation ConsoleDeleteToken($id: ID!) { delete_token(token_id: $id) }": types.ConsoleDeleteTokenDocument,
    "\n  query ConsoleUsage {\n    usage {\n      plan\n      retention_days\n      verification_credits\n      api_quota { quota remaining reset }\n    }\n  }\n": types.ConsoleUsageDocument,
    "\n  query ConsoleAccessChoices {\n    domains(limit: 100, page: 1) { data { id name } }\n    templates(limit: 100, page: 1) { data { id name } }\n  }\n": types.ConsoleAccessChoicesDocument,
    "\n  query ConsoleUser($id: ID!) {\n    user(user_id: $id) { id email role permissions domains { id } templates { id } }\n  }\n": types.ConsoleUserDocument,
    "\n  mutation ConsoleUpdateUser($id: ID!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    update_user(user_id: $id, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id role permissions domains { id } templates { id } }\n  }\n": types.ConsoleUpdateUserDocument,
    "\n  query ConsoleUsers {\n    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }\n    invites(limit: 100, page: 1) { id email role created_at }\n  }\n": types.ConsoleUsersDocument,
    "\n  mutation ConsoleInvite($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id email }\n  }\n": types.ConsoleInviteDocument,
    "mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }": types.ConsoleResendInviteDocument,
    "mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }": types.ConsoleDeleteInviteDocument,
    "mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }": types.ConsoleDeleteUserDocument,
    "\n  query ConsoleVerificationLists {\n    email_verification_lists(limit: 100, page: 1) {\n      data {\n        id\n        name\n        total\n        created_at\n        status { name count }\n        statistics { valid catch_all unknown mailbox_not_found syntax_error disposable }\n      }\n    }\n  }\n": types.ConsoleVerificationListsDocument,
    "\n  mutation ConsoleCreateVerificationList($name: String!, $emails: [String!]!) {\n    create_email_verification_list(name: $name, emails: $emails) { id }\n  }\n": types.ConsoleCreateVerificationListDocument,
    "\n  mutation ConsoleVerifyList($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }\n": types.ConsoleVerifyListDocument,
    "\n  mutation ConsoleVerifyEmail($email: String!) { verify_email(email: $email) { status } }\n": types.ConsoleVerifyEmailDocument,
    "\n  query ConsoleWebhookLog($id: ID!, $page: Int!) {\n    webhook_log(webhook_id: $id, limit: 25, page: $page) {\n      data { id type attempted_at status success duration_ms error response_excerpt delivery_id }\n      meta { last_page }\n    }\n  }\n": types.ConsoleWebhookLogDocument,
    "\n  subscription ConsoleWebhookLive($id: ID!) {\n    webhook_deliveries(webhook_id: $id) { id }\n  }\n": types.ConsoleWebhookLiveDocument,
    "\n  mutation ConsoleReplayWebhook($id: ID!, $since: String!) {\n    replay_webhook(webhook_id: $id, since: $since) { replayed }\n  }\n": types.ConsoleReplayWebhookDocument,
    "\n  query ConsoleWebhookDelivery($id: ID!) {\n    webhook_delivery(delivery_id: $id) { id type state attempts last_status body }\n  }\n": types.ConsoleWebhookDeliveryDocument,
    "\n  mutation ConsoleRetryWebhookDelivery($id: ID!) {\n    retry_webhook_delivery(delivery_id: $id) { id state attempts }\n  }\n": types.ConsoleRetryWebhookDeliveryDocument,
    "\n  query ConsoleWebhooks($domain: ID!) {\n    webhooks(domain_id: $domain, limit: 100, page: 1) {\n      data { id name url enabled events }\n    }\n  }\n": types.ConsoleWebhooksDocument,
    "\n  query ConsoleWebhook($id: ID!) {\n    webhook(webhook_id: $id) { id name url enabled events secret domain { id name } }\n  }\n": types.ConsoleWebhookDocument,
    "\n  mutation ConsoleCreateWebhook($domain: ID!, $name: String!, $url: String!, $events: [String!]!, $enabled: Boolean) {\n    create_webhook(domain_id: $domain, name: $name, url: $url, events: $events, enabled: $enabled) { id }\n  }\n": types.ConsoleCreateWebhookDocument,
    "\n  mutation ConsoleUpdateWebhook($id: ID!, $name: String, $url: String, $events: [String!], $enabled: Boolean) {\n    update_webhook(webhook_id: $id, name: $name, url: $url, events: $events, enabled: $enabled) { id name url enabled events }\n  }\n": types.ConsoleUpdateWebhookDocument,
    "\n  mutation ConsoleRotateWebhookSecret($id: ID!) {\n    rotate_webhook_secret(webhook_id: $id) { id secret }\n  }\n": types.ConsoleRotateWebhookSecretDocument,
    "\n  query ConsoleTokenCheck {\n    whoami { account_id }\n  }\n": types.ConsoleTokenCheckDocument,
    "\n  query ConsoleDomainPicker {\n    domain_choices {\n      id\n      name\n    }\n  }\n": types.ConsoleDomainPickerDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleActivity($domain: ID!, $from: String!, $to: String!, $event: [String!], $page: Int!) {\n    activities(domain_id: $domain, date_from: $from, date_to: $to, event: $event, limit: 25, page: $page) {\n      data {\n        id\n        type\n        created_at\n        email {\n          id\n          subject\n          recipient { email }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleActivity($domain: ID!, $from: String!, $to: String!, $event: [String!], $page: Int!) {\n    activities(domain_id: $domain, date_from: $from, date_to: $to, event: $event, limit: 25, page: $page) {\n      data {\n        id\n        type\n        created_at\n        email {\n          id\n          subject\n          recipient { email }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleLiveActivity($domain: ID!) {\n    activity(domain_id: $domain) {\n      id\n      type\n      created_at\n      email {\n        id\n        subject\n        recipient { email }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleLiveActivity($domain: ID!) {\n    activity(domain_id: $domain) {\n      id\n      type\n      created_at\n      email {\n        id\n        subject\n        recipient { email }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAnalytics($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n    analytics_country(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_name(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_type(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n  }\n"): (typeof documents)["\n  query ConsoleAnalytics($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n    analytics_country(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_name(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n    analytics_ua_type(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBulkEmails($page: Int!) {\n    bulk_emails(limit: 25, page: $page) { id created_at state total_recipients_count suppressed_recipients_count validation_errors_count }\n  }\n"): (typeof documents)["\n  query ConsoleBulkEmails($page: Int!) {\n    bulk_emails(limit: 25, page: $page) { id created_at state total_recipients_count suppressed_recipients_count validation_errors_count }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBulkEmail($id: ID!) {\n    bulk_email(bulk_email_id: $id) {\n      id\n      created_at\n      updated_at\n      state\n      total_recipients_count\n      suppressed_recipients_count\n      suppressed_recipients\n      validation_errors_count\n      validation_errors\n      messages_id\n    }\n  }\n"): (typeof documents)["\n  query ConsoleBulkEmail($id: ID!) {\n    bulk_email(bulk_email_id: $id) {\n      id\n      created_at\n      updated_at\n      state\n      total_recipients_count\n      suppressed_recipients_count\n      suppressed_recipients\n      validation_errors_count\n      validation_errors\n      messages_id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleSendBulk($emails: [JSONObject!]!) { send_bulk_email(emails: $emails) { bulk_email_id } }"): (typeof documents)["mutation ConsoleSendBulk($emails: [JSONObject!]!) { send_bulk_email(emails: $emails) { bulk_email_id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDmarcMonitors {\n    dmarc_monitors(limit: 100, page: 1) { id domain { id name } dmarc_valid dmarc_record wanted_dmarc_record report_address spf_status }\n  }\n"): (typeof documents)["\n  query ConsoleDmarcMonitors {\n    dmarc_monitors(limit: 100, page: 1) { id domain { id name } dmarc_valid dmarc_record wanted_dmarc_record report_address spf_status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleCreateDmarcMonitor($domain: ID!) { create_dmarc_monitor(domain_id: $domain) { id } }"): (typeof documents)["mutation ConsoleCreateDmarcMonitor($domain: ID!) { create_dmarc_monitor(domain_id: $domain) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDmarcSources($id: ID!, $from: String!, $to: String!) {\n    dmarc_report_sources(monitor_id: $id, date_from: $from, date_to: $to) { report_source reports }\n  }\n"): (typeof documents)["\n  query ConsoleDmarcSources($id: ID!, $from: String!, $to: String!) {\n    dmarc_report_sources(monitor_id: $id, date_from: $from, date_to: $to) { report_source reports }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDomainSettings($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleDomainSettings($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateDomainSettings(\n    $id: ID!\n    $send_paused: Boolean\n    $track_opens: Boolean\n    $track_clicks: Boolean\n    $track_unsubscribe: Boolean\n    $track_content: Boolean\n    $precedence_bulk: Boolean\n    $ignore_duplicated_recipients: Boolean\n  ) {\n    update_domain_settings(\n      domain_id: $id\n      send_paused: $send_paused\n      track_opens: $track_opens\n      track_clicks: $track_clicks\n      track_unsubscribe: $track_unsubscribe\n      track_content: $track_content\n      precedence_bulk: $precedence_bulk\n      ignore_duplicated_recipients: $ignore_duplicated_recipients\n    ) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateDomainSettings(\n    $id: ID!\n    $send_paused: Boolean\n    $track_opens: Boolean\n    $track_clicks: Boolean\n    $track_unsubscribe: Boolean\n    $track_content: Boolean\n    $precedence_bulk: Boolean\n    $ignore_duplicated_recipients: Boolean\n  ) {\n    update_domain_settings(\n      domain_id: $id\n      send_paused: $send_paused\n      track_opens: $track_opens\n      track_clicks: $track_clicks\n      track_unsubscribe: $track_unsubscribe\n      track_content: $track_content\n      precedence_bulk: $precedence_bulk\n      ignore_duplicated_recipients: $ignore_duplicated_recipients\n    ) {\n      id\n      domain_settings {\n        send_paused\n        track_opens\n        track_clicks\n        track_unsubscribe\n        track_content\n        precedence_bulk\n        ignore_duplicated_recipients\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDomains {\n    domains(limit: 100, page: 1) {\n      data {\n        id\n        name\n        is_verified\n        is_dns_active\n        created_at\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleDomains {\n    domains(limit: 100, page: 1) {\n      data {\n        id\n        name\n        is_verified\n        is_dns_active\n        created_at\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateDomain($name: String!) {\n    create_domain(name: $name) {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateDomain($name: String!) {\n    create_domain(name: $name) {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDnsRecords($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      name\n      is_verified\n      is_dns_active\n      spf\n      dkim\n      is_cname_verified\n      tracking\n      mx\n    }\n    domain_dns_records(domain_id: $id) {\n      id\n      spf { hostname type value }\n      dkim { hostname type value }\n      return_path { hostname type value }\n      custom_tracking { hostname type value }\n      inbound_routing { hostname type value priority }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleDnsRecords($id: ID!) {\n    domain(domain_id: $id) {\n      id\n      name\n      is_verified\n      is_dns_active\n      spf\n      dkim\n      is_cname_verified\n      tracking\n      mx\n    }\n    domain_dns_records(domain_id: $id) {\n      id\n      spf { hostname type value }\n      dkim { hostname type value }\n      return_path { hostname type value }\n      custom_tracking { hostname type value }\n      inbound_routing { hostname type value priority }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleVerifyDomain($id: ID!) {\n    verify_domain(domain_id: $id) {\n      message\n      data { spf dkim mx rp_cname tracking cname }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleVerifyDomain($id: ID!) {\n    verify_domain(domain_id: $id) {\n      message\n      data { spf dkim mx rp_cname tracking cname }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleEmails($domain: ID, $status: [String!], $recipient: String, $subject: String, $page: Int!, $limit: Int!) {\n    emails(domain_id: $domain, status: $status, recipient: $recipient, subject: $subject, limit: $limit, page: $page) {\n      id\n      created_at\n      to\n      subject\n      status\n    }\n  }\n"): (typeof documents)["\n  query ConsoleEmails($domain: ID, $status: [String!], $recipient: String, $subject: String, $page: Int!, $limit: Int!) {\n    emails(domain_id: $domain, status: $status, recipient: $recipient, subject: $subject, limit: $limit, page: $page) {\n      id\n      created_at\n      to\n      subject\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleEmail($id: ID!) {\n    email(email_id: $id) {\n      id\n      created_at\n      from\n      from_name\n      to\n      to_name\n      subject\n      status\n      tags\n      message_id\n      interaction\n      html\n      text\n      last_response\n      diagnosis { reason requirement provider explanation }\n      content { raw }\n      activity { id type created_at suppression_reason }\n      webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleEmail($id: ID!) {\n    email(email_id: $id) {\n      id\n      created_at\n      from\n      from_name\n      to\n      to_name\n      subject\n      status\n      tags\n      message_id\n      interaction\n      html\n      text\n      last_response\n      diagnosis { reason requirement provider explanation }\n      content { raw }\n      activity { id type created_at suppression_reason }\n      webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleIdentities($domain: ID) {\n    sender_identities(domain_id: $domain, limit: 100, page: 1) { id email name is_verified reply_to_email resends domain { id name } }\n  }\n"): (typeof documents)["\n  query ConsoleIdentities($domain: ID) {\n    sender_identities(domain_id: $domain, limit: 100, page: 1) { id email name is_verified reply_to_email resends domain { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateIdentity($domain: ID!, $email: String!, $name: String, $reply: String) {\n    create_sender_identity(domain_id: $domain, email: $email, name: $name, reply_to_email: $reply) { id email }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateIdentity($domain: ID!, $email: String!, $name: String, $reply: String) {\n    create_sender_identity(domain_id: $domain, email: $email, name: $name, reply_to_email: $reply) { id email }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleResendIdentity($id: ID!) { resend_sender_identity(identity_id: $id) { id resends } }"): (typeof documents)["mutation ConsoleResendIdentity($id: ID!) { resend_sender_identity(identity_id: $id) { id resends } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteIdentity($id: ID!) { delete_sender_identity(identity_id: $id) }"): (typeof documents)["mutation ConsoleDeleteIdentity($id: ID!) { delete_sender_identity(identity_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInbounds($domain: ID!, $page: Int!) {\n    inbounds_page(domain_id: $domain, limit: 25, page: $page) {\n      data { id name address enabled domain_enabled inbound_domain created_at forwards { id type value } }\n      meta { current_page last_page }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleInbounds($domain: ID!, $page: Int!) {\n    inbounds_page(domain_id: $domain, limit: 25, page: $page) {\n      data { id name address enabled domain_enabled inbound_domain created_at forwards { id type value } }\n      meta { current_page last_page }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInbound($id: ID!) {\n    inbound(inbound_id: $id) {\n      id name address enabled domain_enabled inbound_domain dns_checked_at created_at\n      domain { id name }\n      catch_filter { type }\n      match_filter { type }\n      forwards { id type value confirmation secret }\n      mxValues { priority target }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleInbound($id: ID!) {\n    inbound(inbound_id: $id) {\n      id name address enabled domain_enabled inbound_domain dns_checked_at created_at\n      domain { id name }\n      catch_filter { type }\n      match_filter { type }\n      forwards { id type value confirmation secret }\n      mxValues { priority target }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateInbound(\n    $domain: ID!, $name: String!, $forwards: [InboundForwardInput!]!, $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    create_inbound(domain_id: $domain, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name address domain_enabled inbound_domain mxValues { priority target } forwards { id type value confirmation }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateInbound(\n    $domain: ID!, $name: String!, $forwards: [InboundForwardInput!]!, $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    create_inbound(domain_id: $domain, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name address domain_enabled inbound_domain mxValues { priority target } forwards { id type value confirmation }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateInbound(\n    $id: ID!, $name: String, $forwards: [InboundForwardInput!], $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    update_inbound(inbound_id: $id, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name enabled domain_enabled inbound_domain forwards { id type value confirmation secret }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateInbound(\n    $id: ID!, $name: String, $forwards: [InboundForwardInput!], $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String\n  ) {\n    update_inbound(inbound_id: $id, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {\n      id name enabled domain_enabled inbound_domain forwards { id type value confirmation secret }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteInbound($id: ID!) { delete_inbound(inbound_id: $id) }"): (typeof documents)["mutation ConsoleDeleteInbound($id: ID!) { delete_inbound(inbound_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInbox($page: Int!) {\n    captured_emails(limit: 25, page: $page) {\n      data { id email_id from to subject created_at }\n      meta { total }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleInbox($page: Int!) {\n    captured_emails(limit: 25, page: $page) {\n      data { id email_id from to subject created_at }\n      meta { total }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSandboxMails($page: Int!) {\n    sandbox_mails(limit: 25, page: $page) {\n      data { id kind from to subject created_at }\n      meta { total }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleSandboxMails($page: Int!) {\n    sandbox_mails(limit: 25, page: $page) {\n      data { id kind from to subject created_at }\n      meta { total }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSandboxMail($id: ID!) {\n    sandbox_mail(mail_id: $id) { id kind from to subject created_at text html }\n  }\n"): (typeof documents)["\n  query ConsoleSandboxMail($id: ID!) {\n    sandbox_mail(mail_id: $id) { id kind from to subject created_at text html }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBlocklistMonitors {\n    blocklist_monitors(limit: 100, page: 1) { id name address type blocklisted last_check in_progress }\n  }\n"): (typeof documents)["\n  query ConsoleBlocklistMonitors {\n    blocklist_monitors(limit: 100, page: 1) { id name address type blocklisted last_check in_progress }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateBlocklistMonitor($address: String!, $name: String) {\n    create_blocklist_monitor(address: $address, name: $name) { id }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateBlocklistMonitor($address: String!, $name: String) {\n    create_blocklist_monitor(address: $address, name: $name) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteBlocklistMonitor($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }"): (typeof documents)["mutation ConsoleDeleteBlocklistMonitor($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleOverview {\n    overview {\n      sandbox\n      waiting { count more }\n      webhooks_failing\n      setup { key done }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleOverview {\n    overview {\n      sandbox\n      waiting { count more }\n      webhooks_failing\n      setup { key done }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleOverviewCounts($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n  }\n"): (typeof documents)["\n  query ConsoleOverviewCounts($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {\n    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: \"days\") { stats }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSandbox {\n    overview { sandbox }\n  }\n"): (typeof documents)["\n  query ConsoleSandbox {\n    overview { sandbox }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRecipients($domain: ID, $page: Int!) {\n    recipients(domain_id: $domain, limit: 25, page: $page) {\n      data { id email created_at }\n      meta { current_page last_page total }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRecipients($domain: ID, $page: Int!) {\n    recipients(domain_id: $domain, limit: 25, page: $page) {\n      data { id email created_at }\n      meta { current_page last_page total }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRecipient($id: ID!) {\n    recipient(recipient_id: $id) {\n      id\n      email\n      created_at\n      domain { id name }\n      emails { id subject status created_at }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleRecipient($id: ID!) {\n    recipient(recipient_id: $id) {\n      id\n      email\n      created_at\n      domain { id name }\n      emails { id subject status created_at }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteRecipient($id: ID!) { delete_recipient(recipient_id: $id) }"): (typeof documents)["mutation ConsoleDeleteRecipient($id: ID!) { delete_recipient(recipient_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSmsNumbers {\n    sms_numbers_page(limit: 100, page: 1) { data { id telephone_number paused created_at } }\n  }\n"): (typeof documents)["\n  query ConsoleSmsNumbers {\n    sms_numbers_page(limit: 100, page: 1) { data { id telephone_number paused created_at } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSmsActivity {\n    sms_activity(limit: 50, page: 1) { sms_message_id from to status content created_at }\n  }\n"): (typeof documents)["\n  query ConsoleSmsActivity {\n    sms_activity(limit: 50, page: 1) { sms_message_id from to status content created_at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSmtpUsers($domain: ID!) {\n    smtp_users(domain_id: $domain, limit: 100, page: 1) { id name username enabled server port accessed_at }\n  }\n"): (typeof documents)["\n  query ConsoleSmtpUsers($domain: ID!) {\n    smtp_users(domain_id: $domain, limit: 100, page: 1) { id name username enabled server port accessed_at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateSmtpUser($domain: ID!, $name: String!) {\n    create_smtp_user(domain_id: $domain, name: $name) { id name username password server port }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateSmtpUser($domain: ID!, $name: String!) {\n    create_smtp_user(domain_id: $domain, name: $name) { id name username password server port }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleToggleSmtpUser($domain: ID!, $id: ID!, $enabled: Boolean!) {\n    update_smtp_user(domain_id: $domain, smtp_user_id: $id, enabled: $enabled) { id enabled }\n  }\n"): (typeof documents)["\n  mutation ConsoleToggleSmtpUser($domain: ID!, $id: ID!, $enabled: Boolean!) {\n    update_smtp_user(domain_id: $domain, smtp_user_id: $id, enabled: $enabled) { id enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteSmtpUser($domain: ID!, $id: ID!) { delete_smtp_user(domain_id: $domain, smtp_user_id: $id) }"): (typeof documents)["mutation ConsoleDeleteSmtpUser($domain: ID!, $id: ID!) { delete_smtp_user(domain_id: $domain, smtp_user_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSuppressions($domain: ID, $page: Int!) {\n    hard_bounces(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    spam_complaints(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    unsubscribes(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    on_hold_list(domain_id: $domain, limit: 100, page: $page) { id created_at reason on_hold_until recipient { email } }\n    blocklist(domain_id: $domain, limit: 100, page: $page) { id created_at type pattern }\n  }\n"): (typeof documents)["\n  query ConsoleSuppressions($domain: ID, $page: Int!) {\n    hard_bounces(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    spam_complaints(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    unsubscribes(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }\n    on_hold_list(domain_id: $domain, limit: 100, page: $page) { id created_at reason on_hold_until recipient { email } }\n    blocklist(domain_id: $domain, limit: 100, page: $page) { id created_at type pattern }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleAddHard($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }"): (typeof documents)["mutation ConsoleAddHard($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleAddSpam($d: ID!, $r: [String!]!) { add_spam_complaints(domain_id: $d, recipients: $r) { id } }"): (typeof documents)["mutation ConsoleAddSpam($d: ID!, $r: [String!]!) { add_spam_complaints(domain_id: $d, recipients: $r) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleAddUnsub($d: ID!, $r: [String!]!) { add_unsubscribes(domain_id: $d, recipients: $r) { id } }"): (typeof documents)["mutation ConsoleAddUnsub($d: ID!, $r: [String!]!) { add_unsubscribes(domain_id: $d, recipients: $r) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleAddHold($d: ID!, $r: [String!]!) { add_on_hold_list(domain_id: $d, recipients: $r) { id } }"): (typeof documents)["mutation ConsoleAddHold($d: ID!, $r: [String!]!) { add_on_hold_list(domain_id: $d, recipients: $r) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleAddBlock($d: ID!, $r: [String!]!) { add_to_blocklist(domain_id: $d, recipients: $r) { id } }"): (typeof documents)["mutation ConsoleAddBlock($d: ID!, $r: [String!]!) { add_to_blocklist(domain_id: $d, recipients: $r) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDelHard($d: ID!, $ids: [ID!]) { delete_hard_bounces(domain_id: $d, ids: $ids) }"): (typeof documents)["mutation ConsoleDelHard($d: ID!, $ids: [ID!]) { delete_hard_bounces(domain_id: $d, ids: $ids) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDelSpam($d: ID!, $ids: [ID!]) { delete_spam_complaints(domain_id: $d, ids: $ids) }"): (typeof documents)["mutation ConsoleDelSpam($d: ID!, $ids: [ID!]) { delete_spam_complaints(domain_id: $d, ids: $ids) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDelUnsub($d: ID!, $ids: [ID!]) { delete_unsubscribes(domain_id: $d, ids: $ids) }"): (typeof documents)["mutation ConsoleDelUnsub($d: ID!, $ids: [ID!]) { delete_unsubscribes(domain_id: $d, ids: $ids) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDelHold($d: ID!, $ids: [ID!]) { delete_on_hold_list(domain_id: $d, ids: $ids) }"): (typeof documents)["mutation ConsoleDelHold($d: ID!, $ids: [ID!]) { delete_on_hold_list(domain_id: $d, ids: $ids) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDelBlock($d: ID!, $ids: [ID!]) { delete_from_blocklist(domain_id: $d, ids: $ids) }"): (typeof documents)["mutation ConsoleDelBlock($d: ID!, $ids: [ID!]) { delete_from_blocklist(domain_id: $d, ids: $ids) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTemplate($id: ID!) {\n    template(template_id: $id) { id name tags variables subject html text domain { id name } }\n  }\n"): (typeof documents)["\n  query ConsoleTemplate($id: ID!) {\n    template(template_id: $id) { id name tags variables subject html text domain { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateTemplate($name: String!, $subject: String, $html: String!, $text: String, $auto: Boolean) {\n    create_template(name: $name, subject: $subject, html: $html, text: $text, auto_generate: $auto) { id }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateTemplate($name: String!, $subject: String, $html: String!, $text: String, $auto: Boolean) {\n    create_template(name: $name, subject: $subject, html: $html, text: $text, auto_generate: $auto) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateTemplate($id: ID!, $name: String, $subject: String, $html: String, $text: String) {\n    update_template(template_id: $id, name: $name, subject: $subject, html: $html, text: $text) { id name variables }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateTemplate($id: ID!, $name: String, $subject: String, $html: String, $text: String) {\n    update_template(template_id: $id, name: $name, subject: $subject, html: $html, text: $text) { id name variables }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleTemplateTestSend($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $template: String!, $personalization: [PersonalizationInput!]) {\n    send_email(from: $from, to: $to, template_id: $template, personalization: $personalization) {\n      message_id\n      warnings { type }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleTemplateTestSend($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $template: String!, $personalization: [PersonalizationInput!]) {\n    send_email(from: $from, to: $to, template_id: $template, personalization: $personalization) {\n      message_id\n      warnings { type }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTemplates {\n    templates(limit: 100, page: 1) {\n      data { id name tags updated_at variables }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTemplates {\n    templates(limit: 100, page: 1) {\n      data { id name tags updated_at variables }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {\n    send_email(from: $from, to: $to, subject: $subject, text: $text) {\n      message_id\n      message\n      send_paused\n      warnings { type warning recipients { email reasons } }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {\n    send_email(from: $from, to: $to, subject: $subject, text: $text) {\n      message_id\n      message\n      send_paused\n      warnings { type warning recipients { email reasons } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTokens($page: Int!) {\n    tokens_page(limit: 25, page: $page) {\n      data { id name status scopes created_at domain_id }\n      meta { last_page }\n    }\n    domains(limit: 100, page: 1) { data { id name } }\n  }\n"): (typeof documents)["\n  query ConsoleTokens($page: Int!) {\n    tokens_page(limit: 25, page: $page) {\n      data { id name status scopes created_at domain_id }\n      meta { last_page }\n    }\n    domains(limit: 100, page: 1) { data { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateToken($name: String!, $scopes: [String!]!, $domain: ID) {\n    create_token(name: $name, scopes: $scopes, domain_id: $domain) { id name accessToken }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateToken($name: String!, $scopes: [String!]!, $domain: ID) {\n    create_token(name: $name, scopes: $scopes, domain_id: $domain) { id name accessToken }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleTokenStatus($id: ID!, $status: String!) {\n    update_token_settings(token_id: $id, status: $status) { id status }\n  }\n"): (typeof documents)["\n  mutation ConsoleTokenStatus($id: ID!, $status: String!) {\n    update_token_settings(token_id: $id, status: $status) { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteToken($id: ID!) { delete_token(token_id: $id) }"): (typeof documents)["mutation ConsoleDeleteToken($id: ID!) { delete_token(token_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleUsage {\n    usage {\n      plan\n      retention_days\n      verification_credits\n      api_quota { quota remaining reset }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleUsage {\n    usage {\n      plan\n      retention_days\n      verification_credits\n      api_quota { quota remaining reset }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAccessChoices {\n    domains(limit: 100, page: 1) { data { id name } }\n    templates(limit: 100, page: 1) { data { id name } }\n  }\n"): (typeof documents)["\n  query ConsoleAccessChoices {\n    domains(limit: 100, page: 1) { data { id name } }\n    templates(limit: 100, page: 1) { data { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleUser($id: ID!) {\n    user(user_id: $id) { id email role permissions domains { id } templates { id } }\n  }\n"): (typeof documents)["\n  query ConsoleUser($id: ID!) {\n    user(user_id: $id) { id email role permissions domains { id } templates { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateUser($id: ID!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    update_user(user_id: $id, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id role permissions domains { id } templates { id } }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateUser($id: ID!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    update_user(user_id: $id, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id role permissions domains { id } templates { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleUsers {\n    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }\n    invites(limit: 100, page: 1) { id email role created_at }\n  }\n"): (typeof documents)["\n  query ConsoleUsers {\n    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }\n    invites(limit: 100, page: 1) { id email role created_at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleInvite($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id email }\n  }\n"): (typeof documents)["\n  mutation ConsoleInvite($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {\n    invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id email }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }"): (typeof documents)["mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }"): (typeof documents)["mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }"): (typeof documents)["mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleVerificationLists {\n    email_verification_lists(limit: 100, page: 1) {\n      data {\n        id\n        name\n        total\n        created_at\n        status { name count }\n        statistics { valid catch_all unknown mailbox_not_found syntax_error disposable }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleVerificationLists {\n    email_verification_lists(limit: 100, page: 1) {\n      data {\n        id\n        name\n        total\n        created_at\n        status { name count }\n        statistics { valid catch_all unknown mailbox_not_found syntax_error disposable }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateVerificationList($name: String!, $emails: [String!]!) {\n    create_email_verification_list(name: $name, emails: $emails) { id }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateVerificationList($name: String!, $emails: [String!]!) {\n    create_email_verification_list(name: $name, emails: $emails) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleVerifyList($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }\n"): (typeof documents)["\n  mutation ConsoleVerifyList($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleVerifyEmail($email: String!) { verify_email(email: $email) { status } }\n"): (typeof documents)["\n  mutation ConsoleVerifyEmail($email: String!) { verify_email(email: $email) { status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhookLog($id: ID!, $page: Int!) {\n    webhook_log(webhook_id: $id, limit: 25, page: $page) {\n      data { id type attempted_at status success duration_ms error response_excerpt delivery_id }\n      meta { last_page }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleWebhookLog($id: ID!, $page: Int!) {\n    webhook_log(webhook_id: $id, limit: 25, page: $page) {\n      data { id type attempted_at status success duration_ms error response_excerpt delivery_id }\n      meta { last_page }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleWebhookLive($id: ID!) {\n    webhook_deliveries(webhook_id: $id) { id }\n  }\n"): (typeof documents)["\n  subscription ConsoleWebhookLive($id: ID!) {\n    webhook_deliveries(webhook_id: $id) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReplayWebhook($id: ID!, $since: String!) {\n    replay_webhook(webhook_id: $id, since: $since) { replayed }\n  }\n"): (typeof documents)["\n  mutation ConsoleReplayWebhook($id: ID!, $since: String!) {\n    replay_webhook(webhook_id: $id, since: $since) { replayed }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhookDelivery($id: ID!) {\n    webhook_delivery(delivery_id: $id) { id type state attempts last_status body }\n  }\n"): (typeof documents)["\n  query ConsoleWebhookDelivery($id: ID!) {\n    webhook_delivery(delivery_id: $id) { id type state attempts last_status body }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRetryWebhookDelivery($id: ID!) {\n    retry_webhook_delivery(delivery_id: $id) { id state attempts }\n  }\n"): (typeof documents)["\n  mutation ConsoleRetryWebhookDelivery($id: ID!) {\n    retry_webhook_delivery(delivery_id: $id) { id state attempts }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhooks($domain: ID!) {\n    webhooks(domain_id: $domain, limit: 100, page: 1) {\n      data { id name url enabled events }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleWebhooks($domain: ID!) {\n    webhooks(domain_id: $domain, limit: 100, page: 1) {\n      data { id name url enabled events }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhook($id: ID!) {\n    webhook(webhook_id: $id) { id name url enabled events secret domain { id name } }\n  }\n"): (typeof documents)["\n  query ConsoleWebhook($id: ID!) {\n    webhook(webhook_id: $id) { id name url enabled events secret domain { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateWebhook($domain: ID!, $name: String!, $url: String!, $events: [String!]!, $enabled: Boolean) {\n    create_webhook(domain_id: $domain, name: $name, url: $url, events: $events, enabled: $enabled) { id }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateWebhook($domain: ID!, $name: String!, $url: String!, $events: [String!]!, $enabled: Boolean) {\n    create_webhook(domain_id: $domain, name: $name, url: $url, events: $events, enabled: $enabled) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateWebhook($id: ID!, $name: String, $url: String, $events: [String!], $enabled: Boolean) {\n    update_webhook(webhook_id: $id, name: $name, url: $url, events: $events, enabled: $enabled) { id name url enabled events }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateWebhook($id: ID!, $name: String, $url: String, $events: [String!], $enabled: Boolean) {\n    update_webhook(webhook_id: $id, name: $name, url: $url, events: $events, enabled: $enabled) { id name url enabled events }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRotateWebhookSecret($id: ID!) {\n    rotate_webhook_secret(webhook_id: $id) { id secret }\n  }\n"): (typeof documents)["\n  mutation ConsoleRotateWebhookSecret($id: ID!) {\n    rotate_webhook_secret(webhook_id: $id) { id secret }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTokenCheck {\n    whoami { account_id }\n  }\n"): (typeof documents)["\n  query ConsoleTokenCheck {\n    whoami { account_id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDomainPicker {\n    domain_choices {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query ConsoleDomainPicker {\n    domain_choices {\n      id\n      name\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;