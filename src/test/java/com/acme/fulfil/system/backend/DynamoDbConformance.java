package com.acme.fulfil.system.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * What DynamoDB documents for every operation and option this project uses (the order's record in
 * {@code OrderRecords}, the dead letters' stored labels, on-call's reads and drift check, the local stack's
 * table), held against a backend: the emulator the tests and {@code ./run-local} use, and LocalStack. The
 * function's guarantees rest on these answers, so a backend that gave others would make every test above
 * it prove nothing. The expressions are the function's own shapes, on keys of each test's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DynamoDbConformance {
  private static final String KEY = "id";
  /** DynamoDB's item size limit, 400 KB, counted in binary units: names and values in UTF-8 bytes. */
  private static final int ITEM_LIMIT_BYTES = 400 * 1024;
  private static final int RACE_ROUNDS = 50;
  private static final int RACERS = 4;

  private final String table = "conformance-" + UUID.randomUUID();
  private DynamoDbClient dynamoDb;

  /** A client of the backend under test, which is running by now. */
  abstract DynamoDbClient connect();

  @BeforeAll
  void createTheTableAsTheStackDoes() {
    dynamoDb = connect();
    dynamoDb.createTable(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(k -> k.attributeName(KEY).keyType(KeyType.HASH))
        .attributeDefinitions(a -> a.attributeName(KEY).attributeType(ScalarAttributeType.S)));
    dynamoDb.waiter().waitUntilTableExists(r -> r.tableName(table));
  }

  @AfterAll
  void closeClient() {
    dynamoDb.close();
  }

  @Test
  void aConditionalUpdateCreatesAMissingItemAddingToANumberItDoesNotHaveAndRemovingWhatIsNotThere() {
    String id = newKey();

    claim(id, "try-1", 1_000);

    Map<String, AttributeValue> item = read(id);
    assertThat(item.get("tries").n()).as("ADD to a missing number starts from 0").isEqualTo("1");
    assertThat(item.get("held_by").s()).isEqualTo("try-1");
    assertThat(item).doesNotContainKey("last_reason");
  }

  @Test
  void aConditionalUpdateAppliesSetAddAndRemoveTogetherWhenItsConditionHolds() {
    String id = newKey();
    claim(id, "try-1", 1_000);
    update(id, "SET last_reason = :r", Map.of(":r", s("503 before booking")));

    claim(id, "try-2", 2_000, 1_001);

    Map<String, AttributeValue> item = read(id);
    assertThat(item.get("tries").n()).isEqualTo("2");
    assertThat(item.get("held_by").s()).isEqualTo("try-2");
    assertThat(item).as("REMOVE in the same expression as SET and ADD").doesNotContainKey("last_reason");
  }

  @Test
  void aFailedConditionChangesNothingAndReturnsTheWholeItemAsItWasWhenAskedForAllOld() {
    String id = newKey();
    claim(id, "try-1", 5_000);
    Map<String, AttributeValue> before = read(id);

    assertThatThrownBy(() -> claim(id, "try-2", 2_000, 1_000))
        .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e -> {
          assertThat(e.hasItem()).isTrue();
          assertThat(e.item()).isEqualTo(before);
        });
    assertThat(read(id)).isEqualTo(before);
  }

  @Test
  void aConditionOnTheClaimsHolderFailsOnAMissingItemAndReturnsNoItem() {
    String id = newKey();

    assertThatThrownBy(() -> dynamoDb.updateItem(r -> r.tableName(table).key(key(id))
        .conditionExpression("#status = :in_progress AND #holder = :ours").updateExpression("SET last_post_at = :now")
        .expressionAttributeNames(Map.of("#status", "status", "#holder", "held_by"))
        .expressionAttributeValues(Map.of(":in_progress", s("INPROGRESS"), ":ours", s("try-1"), ":now", s("2026-11-26T00:00:00Z")))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
        .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e ->
            assertThat(e.hasItem() && !e.item().isEmpty()).isFalse());
    assertThat(dynamoDb.getItem(r -> r.tableName(table).key(key(id)).consistentRead(true)).hasItem())
        .as("a failed condition creates nothing").isFalse();
  }

  @Test
  void ofRacingConditionalWritesOnOneItemExactlyOneWins() throws Exception {
    try (ExecutorService racers = Executors.newFixedThreadPool(RACERS)) {
      for (int round = 0; round < RACE_ROUNDS; round++) {
        String id = newKey();
        CyclicBarrier together = new CyclicBarrier(RACERS);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int racer = 0; racer < RACERS; racer++) {
          String holder = "try-" + racer;
          Callable<Boolean> race = () -> {
            together.await();
            try {
              claim(id, holder, 1_000);
              return true;
            } catch (ConditionalCheckFailedException e) {
              return false;
            }
          };
          outcomes.add(racers.submit(race));
        }
        List<String> winners = new ArrayList<>();
        for (int racer = 0; racer < RACERS; racer++) {
          if (outcomes.get(racer).get()) {
            winners.add("try-" + racer);
          }
        }
        assertThat(winners).as("round " + round).hasSize(1);
        assertThat(read(id).get("held_by").s()).isEqualTo(winners.getFirst());
        assertThat(read(id).get("tries").n()).as("the losers' ADD was not applied").isEqualTo("1");
      }
    }
  }

  @Test
  void conditionsCompareNumbersByValueNotAsText() {
    String id = newKey();
    claim(id, "try-1", 9_999_999_999_999L);

    assertThat(claimed(id, "try-2", 10_000_000_000_000L, 10_000_000_000_000L))
        .as("9,999,999,999,999 < 10,000,000,000,000, though not as text").isTrue();
    assertThat(claimed(id, "try-3", 20_000_000_000_000L, 9_000_000_000_000L))
        .as("10,000,000,000,000 < 9,000,000,000,000 is false, though true as text").isFalse();
  }

  @Test
  void aComparisonWithAMissingAttributeIsFalse() {
    String id = newKey();
    update(id, "SET held_by = :h", Map.of(":h", s("try-1")));

    assertThatThrownBy(() -> dynamoDb.updateItem(r -> r.tableName(table).key(key(id))
        .conditionExpression("#expiry < :until").updateExpression("SET #expiry = :until")
        .expressionAttributeNames(Map.of("#expiry", "expiration")).expressionAttributeValues(Map.of(":until", n(5)))))
        .isInstanceOf(ConditionalCheckFailedException.class);
  }

  @Test
  void aRecordPastItsExpirationIsClaimedAsIfAbsentWhileTimeToLiveHasNotYetDeletedIt() {
    String id = newKey();
    long expiresAtSecond = 1_000;
    update(id, "SET #status = :completed, #expiry = :expiry",
        Map.of(":completed", s("COMPLETED"), ":expiry", n(expiresAtSecond)), Map.of("#status", "status", "#expiry", "expiration"));

    assertThat(claimed(id, "try-1", 5_000_000, expiresAtSecond * 1_000))
        .as("at its expiration second the record still holds").isFalse();
    assertThat(claimed(id, "try-2", 5_000_000, (expiresAtSecond + 1) * 1_000))
        .as("a second later it is free, though still stored").isTrue();
    Map<String, AttributeValue> item = read(id);
    assertThat(item.get("status").s()).isEqualTo("INPROGRESS");
    assertThat(item.get("held_by").s()).isEqualTo("try-2");
    assertThat(item.get("tries").n()).as("the refused claim was not applied").isEqualTo("1");
  }

  @Test
  void anUnconditionalUpdateCreatesAMissingItemAndAConsistentReadSeesIt() {
    String id = newKey();
    assertThat(dynamoDb.getItem(r -> r.tableName(table).key(key(id)).consistentRead(true)).hasItem()).isFalse();

    update(id, "SET #status = :completed, #expiry = :expiry REMOVE held_by",
        Map.of(":completed", s("COMPLETED"), ":expiry", n(1_800_000_000L)), Map.of("#status", "status", "#expiry", "expiration"));

    assertThat(read(id)).containsEntry("status", s("COMPLETED")).containsEntry("expiration", n(1_800_000_000L));
  }

  @Test
  void anExpressionValueThatNoExpressionUsesIsRefused() {
    assertValidationException(() -> update(newKey(), "SET held_by = :h", Map.of(":h", s("try-1"), ":unused", s("x"))));
  }

  @Test
  void anItemOver400KbIsRefusedWithAValidationExceptionWhetherPutOrUpdated() {
    String id = newKey();
    int overhead = KEY.length() + id.length() + "v".length();
    String fits = "a".repeat(ITEM_LIMIT_BYTES - overhead - 100);
    String tooBig = "a".repeat(ITEM_LIMIT_BYTES - overhead + 100);

    dynamoDb.putItem(r -> r.tableName(table).item(Map.of(KEY, s(id), "v", s(fits))));
    assertThat(read(id).get("v").s()).hasSize(fits.length());

    String other = newKey();
    assertValidationException(() -> dynamoDb.putItem(r -> r.tableName(table).item(Map.of(KEY, s(other), "v", s(tooBig)))));
    assertValidationException(() -> update(id, "SET v = :v", Map.of(":v", s(tooBig))));
    assertThat(read(id).get("v").s()).as("the refused update changed nothing").hasSize(fits.length());
  }

  @Test
  void deletingAnItemLeavesNothingAndAConsistentScanSeesEveryItemThroughItsPages() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      ids.add(newKey());
      update(ids.getLast(), "SET held_by = :h", Map.of(":h", s("scan")));
    }
    dynamoDb.deleteItem(r -> r.tableName(table).key(key(ids.getFirst())));

    List<String> scanned = dynamoDb.scanPaginator(r -> r.tableName(table).consistentRead(true).limit(3)).items().stream()
        .map(item -> item.get(KEY).s()).toList();

    assertThat(scanned).containsAll(ids.subList(1, ids.size())).doesNotContain(ids.getFirst());
  }

  @Test
  void timeToLiveIsReportedOnTheAttributeItWasEnabledOn() {
    dynamoDb.updateTimeToLive(r -> r.tableName(table).timeToLiveSpecification(t -> t.attributeName("expiration").enabled(true)));

    var ttl = dynamoDb.describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription();

    assertThat(ttl.attributeName()).isEqualTo("expiration");
    // DynamoDB may take up to an hour to finish enabling, and says ENABLING meanwhile.
    assertThat(ttl.timeToLiveStatus()).isIn(TimeToLiveStatus.ENABLING, TimeToLiveStatus.ENABLED);
  }

  /**
   * OrderRecords' claim: holds the order for {@code holder} if nobody has it, its record expired (TTL
   * deletes it only some time after) or the lock expired before {@code nowMillis}; locks it until
   * {@code lockUntilMillis}.
   */
  private void claim(String id, String holder, long lockUntilMillis, long nowMillis) {
    dynamoDb.updateItem(r -> r.tableName(table).key(key(id))
        .conditionExpression("attribute_not_exists(#id) OR #expiry < :now_s OR (#status = :in_progress AND #lock < :now_ms)")
        .updateExpression("SET #status = :in_progress, #lock = :lock, #holder = :holder ADD #tries :one REMOVE #reason")
        .expressionAttributeNames(Map.of("#id", KEY, "#expiry", "expiration", "#status", "status",
            "#lock", "in_progress_expiration", "#holder", "held_by", "#tries", "tries", "#reason", "last_reason"))
        .expressionAttributeValues(Map.of(":in_progress", s("INPROGRESS"), ":now_s", n(nowMillis / 1_000),
            ":now_ms", n(nowMillis), ":lock", n(lockUntilMillis), ":holder", s(holder), ":one", n(1)))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
  }

  private void claim(String id, String holder, long lockUntilMillis) {
    claim(id, holder, lockUntilMillis, 0);
  }

  private boolean claimed(String id, String holder, long lockUntilMillis, long nowMillis) {
    try {
      claim(id, holder, lockUntilMillis, nowMillis);
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  private void update(String id, String expression, Map<String, AttributeValue> values) {
    update(id, expression, values, Map.of());
  }

  private void update(String id, String expression, Map<String, AttributeValue> values, Map<String, String> names) {
    dynamoDb.updateItem(r -> {
      r.tableName(table).key(key(id)).updateExpression(expression).expressionAttributeValues(values);
      if (!names.isEmpty()) {
        r.expressionAttributeNames(names);
      }
    });
  }

  private Map<String, AttributeValue> read(String id) {
    return new HashMap<>(dynamoDb.getItem(r -> r.tableName(table).key(key(id)).consistentRead(true)).item());
  }

  private static void assertValidationException(ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(DynamoDbException.class, e ->
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
  }

  private static String newKey() {
    return "fulfil-order.book#" + UUID.randomUUID();
  }

  private static Map<String, AttributeValue> key(String id) {
    return Map.of(KEY, s(id));
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
