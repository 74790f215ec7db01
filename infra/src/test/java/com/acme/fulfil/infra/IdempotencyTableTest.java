package com.acme.fulfil.infra;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class IdempotencyTableTest {
  private final Template template = Synth.defaults();

  @Test
  void tableIsKeyedOnIdAndExpiresRecordsOnExpiration() {
    template.hasResourceProperties("AWS::DynamoDB::Table", Map.of(
        "TableName", "fulfil-order-idempotency",
        "KeySchema", List.of(Map.of("AttributeName", "id", "KeyType", "HASH")),
        "AttributeDefinitions", List.of(Map.of("AttributeName", "id", "AttributeType", "S")),
        "TimeToLiveSpecification", Match.objectEquals(Map.of("AttributeName", "expiration", "Enabled", true))));
  }

  @Test
  void tableIsOnDemandWithPointInTimeRecovery() {
    template.hasResourceProperties("AWS::DynamoDB::Table", Map.of(
        "TableName", "fulfil-order-idempotency",
        "BillingMode", "PAY_PER_REQUEST",
        "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true)));
  }

  /** Deleted only when the deploy that created it rolls back, still empty; a retried first deploy then finds no table in its way. */
  @Test
  void tableOutlivesTheStackSoLateRedeliveriesStillFindTheirBooking() {
    template.hasResource("AWS::DynamoDB::Table", Map.of(
        "Properties", Map.of("TableName", "fulfil-order-idempotency"),
        "DeletionPolicy", "RetainExceptOnCreate",
        "UpdateReplacePolicy", "Retain"));
  }
}
