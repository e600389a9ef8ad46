//! Kafka's error code table, as `org.apache.kafka.common.protocol.Errors` in Kafka 4.1.1 lists it
//! (printed from the oracle's jar, `Errors.values()`), so that a learner can answer an error
//! question by number or by name in any case.

/// Every `(code, name)` of Kafka 4.1.1's `Errors`, in its order.
pub const KAFKA_ERRORS: &[(i16, &str)] = &[
    (-1, "UNKNOWN_SERVER_ERROR"),
    (0, "NONE"),
    (1, "OFFSET_OUT_OF_RANGE"),
    (2, "CORRUPT_MESSAGE"),
    (3, "UNKNOWN_TOPIC_OR_PARTITION"),
    (4, "INVALID_FETCH_SIZE"),
    (5, "LEADER_NOT_AVAILABLE"),
    (6, "NOT_LEADER_OR_FOLLOWER"),
    (7, "REQUEST_TIMED_OUT"),
    (8, "BROKER_NOT_AVAILABLE"),
    (9, "REPLICA_NOT_AVAILABLE"),
    (10, "MESSAGE_TOO_LARGE"),
    (11, "STALE_CONTROLLER_EPOCH"),
    (12, "OFFSET_METADATA_TOO_LARGE"),
    (13, "NETWORK_EXCEPTION"),
    (14, "COORDINATOR_LOAD_IN_PROGRESS"),
    (15, "COORDINATOR_NOT_AVAILABLE"),
    (16, "NOT_COORDINATOR"),
    (17, "INVALID_TOPIC_EXCEPTION"),
    (18, "RECORD_LIST_TOO_LARGE"),
    (19, "NOT_ENOUGH_REPLICAS"),
    (20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND"),
    (21, "INVALID_REQUIRED_ACKS"),
    (22, "ILLEGAL_GENERATION"),
    (23, "INCONSISTENT_GROUP_PROTOCOL"),
    (24, "INVALID_GROUP_ID"),
    (25, "UNKNOWN_MEMBER_ID"),
    (26, "INVALID_SESSION_TIMEOUT"),
    (27, "REBALANCE_IN_PROGRESS"),
    (28, "INVALID_COMMIT_OFFSET_SIZE"),
    (29, "TOPIC_AUTHORIZATION_FAILED"),
    (30, "GROUP_AUTHORIZATION_FAILED"),
    (31, "CLUSTER_AUTHORIZATION_FAILED"),
    (32, "INVALID_TIMESTAMP"),
    (33, "UNSUPPORTED_SASL_MECHANISM"),
    (34, "ILLEGAL_SASL_STATE"),
    (35, "UNSUPPORTED_VERSION"),
    (36, "TOPIC_ALREADY_EXISTS"),
    (37, "INVALID_PARTITIONS"),
    (38, "INVALID_REPLICATION_FACTOR"),
    (39, "INVALID_REPLICA_ASSIGNMENT"),
    (40, "INVALID_CONFIG"),
    (41, "NOT_CONTROLLER"),
    (42, "INVALID_REQUEST"),
    (43, "UNSUPPORTED_FOR_MESSAGE_FORMAT"),
    (44, "POLICY_VIOLATION"),
    (45, "OUT_OF_ORDER_SEQUENCE_NUMBER"),
    (46, "DUPLICATE_SEQUENCE_NUMBER"),
    (47, "INVALID_PRODUCER_EPOCH"),
    (48, "INVALID_TXN_STATE"),
    (49, "INVALID_PRODUCER_ID_MAPPING"),
    (50, "INVALID_TRANSACTION_TIMEOUT"),
    (51, "CONCURRENT_TRANSACTIONS"),
    (52, "TRANSACTION_COORDINATOR_FENCED"),
    (53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"),
    (54, "SECURITY_DISABLED"),
    (55, "OPERATION_NOT_ATTEMPTED"),
    (56, "KAFKA_STORAGE_ERROR"),
    (57, "LOG_DIR_NOT_FOUND"),
    (58, "SASL_AUTHENTICATION_FAILED"),
    (59, "UNKNOWN_PRODUCER_ID"),
    (60, "REASSIGNMENT_IN_PROGRESS"),
    (61, "DELEGATION_TOKEN_AUTH_DISABLED"),
    (62, "DELEGATION_TOKEN_NOT_FOUND"),
    (63, "DELEGATION_TOKEN_OWNER_MISMATCH"),
    (64, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED"),
    (65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED"),
    (66, "DELEGATION_TOKEN_EXPIRED"),
    (67, "INVALID_PRINCIPAL_TYPE"),
    (68, "NON_EMPTY_GROUP"),
    (69, "GROUP_ID_NOT_FOUND"),
    (70, "FETCH_SESSION_ID_NOT_FOUND"),
    (71, "INVALID_FETCH_SESSION_EPOCH"),
    (72, "LISTENER_NOT_FOUND"),
    (73, "TOPIC_DELETION_DISABLED"),
    (74, "FENCED_LEADER_EPOCH"),
    (75, "UNKNOWN_LEADER_EPOCH"),
    (76, "UNSUPPORTED_COMPRESSION_TYPE"),
    (77, "STALE_BROKER_EPOCH"),
    (78, "OFFSET_NOT_AVAILABLE"),
    (79, "MEMBER_ID_REQUIRED"),
    (80, "PREFERRED_LEADER_NOT_AVAILABLE"),
    (81, "GROUP_MAX_SIZE_REACHED"),
    (82, "FENCED_INSTANCE_ID"),
    (83, "ELIGIBLE_LEADERS_NOT_AVAILABLE"),
    (84, "ELECTION_NOT_NEEDED"),
    (85, "NO_REASSIGNMENT_IN_PROGRESS"),
    (86, "GROUP_SUBSCRIBED_TO_TOPIC"),
    (87, "INVALID_RECORD"),
    (88, "UNSTABLE_OFFSET_COMMIT"),
    (89, "THROTTLING_QUOTA_EXCEEDED"),
    (90, "PRODUCER_FENCED"),
    (91, "RESOURCE_NOT_FOUND"),
    (92, "DUPLICATE_RESOURCE"),
    (93, "UNACCEPTABLE_CREDENTIAL"),
    (94, "INCONSISTENT_VOTER_SET"),
    (95, "INVALID_UPDATE_VERSION"),
    (96, "FEATURE_UPDATE_FAILED"),
    (97, "PRINCIPAL_DESERIALIZATION_FAILURE"),
    (98, "SNAPSHOT_NOT_FOUND"),
    (99, "POSITION_OUT_OF_RANGE"),
    (100, "UNKNOWN_TOPIC_ID"),
    (101, "DUPLICATE_BROKER_REGISTRATION"),
    (102, "BROKER_ID_NOT_REGISTERED"),
    (103, "INCONSISTENT_TOPIC_ID"),
    (104, "INCONSISTENT_CLUSTER_ID"),
    (105, "TRANSACTIONAL_ID_NOT_FOUND"),
    (106, "FETCH_SESSION_TOPIC_ID_ERROR"),
    (107, "INELIGIBLE_REPLICA"),
    (108, "NEW_LEADER_ELECTED"),
    (109, "OFFSET_MOVED_TO_TIERED_STORAGE"),
    (110, "FENCED_MEMBER_EPOCH"),
    (111, "UNRELEASED_INSTANCE_ID"),
    (112, "UNSUPPORTED_ASSIGNOR"),
    (113, "STALE_MEMBER_EPOCH"),
    (114, "MISMATCHED_ENDPOINT_TYPE"),
    (115, "UNSUPPORTED_ENDPOINT_TYPE"),
    (116, "UNKNOWN_CONTROLLER_ID"),
    (117, "UNKNOWN_SUBSCRIPTION_ID"),
    (118, "TELEMETRY_TOO_LARGE"),
    (119, "INVALID_REGISTRATION"),
    (120, "TRANSACTION_ABORTABLE"),
    (121, "INVALID_RECORD_STATE"),
    (122, "SHARE_SESSION_NOT_FOUND"),
    (123, "INVALID_SHARE_SESSION_EPOCH"),
    (124, "FENCED_STATE_EPOCH"),
    (125, "INVALID_VOTER_KEY"),
    (126, "DUPLICATE_VOTER"),
    (127, "VOTER_NOT_FOUND"),
    (128, "INVALID_REGULAR_EXPRESSION"),
    (129, "REBOOTSTRAP_REQUIRED"),
    (130, "STREAMS_INVALID_TOPOLOGY"),
    (131, "STREAMS_INVALID_TOPOLOGY_EPOCH"),
    (132, "STREAMS_TOPOLOGY_FENCED"),
    (133, "SHARE_SESSION_LIMIT_REACHED"),
];

/// The name Kafka gives `code` (`NONE` for 0), if it is one of Kafka's.
pub fn error_name(code: i16) -> Option<&'static str> {
    KAFKA_ERRORS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, n)| *n)
}

/// Reads an error code typed by a learner or an author: a number (`32`), a name in any case
/// (`invalid_timestamp`, `INVALID_TIMESTAMP`, `invalid timestamp`), or both (`32 INVALID_TIMESTAMP`,
/// which must agree). The error names the reason in lowercase.
pub fn parse_error_code(text: &str) -> Result<i16, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(
            "the error code is empty: type a number like 32 or a name like invalid_timestamp"
                .into(),
        );
    }
    let (num, name) = match t.split_once(char::is_whitespace) {
        Some((a, rest)) if a.parse::<i64>().is_ok() => (Some(a), Some(rest.trim())),
        _ if t.parse::<i64>().is_ok() => (Some(t), None),
        _ => (None, Some(t)),
    };
    let by_number = match num {
        None => None,
        Some(n) => {
            let code = n
                .parse::<i64>()
                .ok()
                .and_then(|c| i16::try_from(c).ok())
                .filter(|c| error_name(*c).is_some())
                .ok_or_else(|| {
                    format!(
                        "error code {n} is not one of Kafka's (they run from -1 to {})",
                        KAFKA_ERRORS.last().map_or(0, |e| e.0)
                    )
                })?;
            Some(code)
        }
    };
    let by_name = match name {
        None => None,
        Some(n) => {
            let key = n.replace([' ', '-'], "_").to_ascii_uppercase();
            let code = KAFKA_ERRORS
                .iter()
                .find(|(_, k)| *k == key)
                .map(|(c, _)| *c)
                .ok_or_else(|| format!("{n:?} is not a Kafka error name (like invalid_timestamp, or none when the broker accepts)"))?;
            Some(code)
        }
    };
    match (by_number, by_name) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "error code {a} is {}, not {}",
            error_name(a).unwrap_or("?").to_ascii_lowercase(),
            error_name(b).unwrap_or("?").to_ascii_lowercase()
        )),
        (Some(a), _) | (None, Some(a)) => Ok(a),
        (None, None) => unreachable!("one of the two is read above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_by_number_or_name_in_any_case() {
        for t in [
            "32",
            "invalid_timestamp",
            "INVALID_TIMESTAMP",
            " Invalid Timestamp ",
            "32 invalid_timestamp",
        ] {
            assert_eq!(parse_error_code(t), Ok(32), "{t}");
        }
        assert_eq!(parse_error_code("none"), Ok(0));
        assert_eq!(parse_error_code("-1"), Ok(-1));
        assert_eq!(parse_error_code("message_too_large"), Ok(10));
        assert_eq!(error_name(87), Some("INVALID_RECORD"));
        assert_eq!(error_name(44), Some("POLICY_VIOLATION"));
    }

    #[test]
    fn bad_codes_say_why() {
        assert_eq!(
            parse_error_code("").unwrap_err(),
            "the error code is empty: type a number like 32 or a name like invalid_timestamp"
        );
        assert_eq!(
            parse_error_code("999").unwrap_err(),
            "error code 999 is not one of Kafka's (they run from -1 to 133)"
        );
        assert_eq!(parse_error_code("timestampy").unwrap_err(), "\"timestampy\" is not a Kafka error name (like invalid_timestamp, or none when the broker accepts)");
        assert_eq!(
            parse_error_code("10 invalid_timestamp").unwrap_err(),
            "error code 10 is message_too_large, not invalid_timestamp"
        );
    }

    /// The model's own codes carry the names Kafka gives them.
    #[test]
    fn the_models_codes_agree_with_the_table() {
        use logtime_model::validation::ErrorCode::*;
        for e in [
            OffsetOutOfRange,
            MessageTooLarge,
            RecordListTooLarge,
            InvalidTimestamp,
            PolicyViolation,
            InvalidRecord,
        ] {
            assert_eq!(error_name(e.code()), Some(e.name()));
        }
    }
}
