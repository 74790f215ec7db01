package com.acme.fulfil.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class OrderParserTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The example in docs/order-message.md, verbatim. */
  static final String CONTRACT_EXAMPLE =
      """
      {
        "order_id": "ORD-2026-000123",
        "placed_at": "2026-11-20T14:03:11Z",
        "service": "standard",
        "ship_to": {
          "name": "Ada Lovelace",
          "line1": "12 St James's Square",
          "line2": null,
          "city": "London",
          "postcode": "SW1Y 4JH",
          "country": "GB"
        },
        "parcels": [ { "weight_grams": 1200 } ]
      }
      """;

  static final OrderMessage CONTRACT_ORDER =
      new OrderMessage(
          "ORD-2026-000123",
          Instant.parse("2026-11-20T14:03:11Z"),
          Service.STANDARD,
          new ShipTo("Ada Lovelace", "12 St James's Square", null, "London", "SW1Y 4JH", "GB"),
          List.of(new Parcel(1200)));

  private static final String ADDRESS_RULE = "must be a non-blank string of at most 200 characters";
  private static final String WEIGHT_RULE = "must be an integer from 1 to 70000";

  private final OrderParser parser = new OrderParser(MAPPER);

  @Test
  void contractExampleParsesToItsOrder() {
    assertThat(parser.parse(CONTRACT_EXAMPLE)).isEqualTo(new ValidOrder(CONTRACT_ORDER));
  }

  @Test
  void unknownFieldsAnywhereAreIgnored() {
    String body =
        changed(
            message -> {
              message.put("gift_wrap", true);
              message.putObject("loyalty").put("tier", "gold");
              shipTo(message).put("county", "Greater London");
              parcel(message, 0).putObject("dimensions_mm").put("length", 300);
            });

    assertThat(parser.parse(body)).isEqualTo(new ValidOrder(CONTRACT_ORDER));
  }

  @Test
  void everyFieldOfAFullOrderReachesTheRecord() {
    String body =
        changed(
            message -> {
              message.put("service", "express");
              message.put("placed_at", "2026-11-20T14:03:11.250+01:00");
              shipTo(message).put("line2", "Flat 3");
              message.withArray("parcels").addObject().put("weight_grams", 70000);
            });

    assertThat(parser.parse(body))
        .isEqualTo(
            new ValidOrder(
                new OrderMessage(
                    "ORD-2026-000123",
                    Instant.parse("2026-11-20T13:03:11.250Z"),
                    Service.EXPRESS,
                    new ShipTo(
                        "Ada Lovelace", "12 St James's Square", "Flat 3", "London", "SW1Y 4JH", "GB"),
                    List.of(new Parcel(1200), new Parcel(70000)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void valuesAtTheEdgeOfTheRulesAreAccepted(String description, Consumer<ObjectNode> change) {
    assertThat(parser.parse(changed(change))).isInstanceOf(ValidOrder.class);
  }

  static Stream<Arguments> valuesAtTheEdgeOfTheRulesAreAccepted() {
    return Stream.of(
        edge("order_id of 64 characters", m -> m.put("order_id", "A".repeat(64))),
        edge("order_id of 1 character", m -> m.put("order_id", "7")),
        edge("order_id using every allowed kind", m -> m.put("order_id", "aZ09_-")),
        edge("line2 absent", m -> shipTo(m).remove("line2")),
        edge("line2 empty", m -> shipTo(m).put("line2", "")),
        edge("line2 of 200 characters", m -> shipTo(m).put("line2", "x".repeat(200))),
        edge("name of 200 characters", m -> shipTo(m).put("name", "x".repeat(200))),
        edge("name of 200 non-BMP characters", m -> shipTo(m).put("name", "😀".repeat(200))),
        edge("weight_grams of 1", m -> parcel(m, 0).put("weight_grams", 1)),
        edge("weight_grams of 70000", m -> parcel(m, 0).put("weight_grams", 70000)),
        edge("50 parcels", m -> parcels(m, 50)));
  }

  @Test
  void emptyBodyIsRejected() {
    assertThat(parser.parse(null)).isEqualTo(new InvalidOrder(null, "body is empty"));
    assertThat(parser.parse("")).isEqualTo(new InvalidOrder(null, "body is empty"));
    assertThat(parser.parse(" \n\t")).isEqualTo(new InvalidOrder(null, "body is empty"));
  }

  @Test
  void malformedJsonIsRejectedWithItsLocation() {
    assertThat(parser.parse("{\n  \"order_id\": \"ORD-1\",\n  \"service\" \"standard\"\n}"))
        .isEqualTo(new InvalidOrder(null, "body is not valid JSON (line 3, column 13)"));
  }

  @Test
  void truncatedJsonIsRejected() {
    assertThat(parser.parse("{\"order_id\": \"ORD-1\""))
        .isEqualTo(new InvalidOrder(null, "body is not valid JSON (line 1, column 21)"));
  }

  @Test
  void contentAfterTheObjectIsMalformedJson() {
    assertThat(parser.parse(CONTRACT_EXAMPLE.strip() + " {}"))
        .isEqualTo(new InvalidOrder(null, "body is not valid JSON (line 14, column 3)"));
  }

  @Test
  void duplicateFieldIsMalformedJsonSoTheOrderIdIsNeverAmbiguous() {
    assertThat(parser.parse("{\"order_id\": \"ORD-1\", \"order_id\": \"ORD-2\"}"))
        .isEqualTo(new InvalidOrder(null, "body is not valid JSON (line 1, column 35)"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "[{\"order_id\": \"ORD-1\"}]", "\"ORD-1\"", "42", "true", "null"})
  void bodyThatIsNotAJsonObjectIsRejected(String body) {
    assertThat(parser.parse(body)).isEqualTo(new InvalidOrder(null, "body must be a JSON object"));
  }

  @Test
  void bodyOfExactlyTheSqsLimitIsAccepted() {
    String body = paddedTo(SqsLimits.MAX_MESSAGE_BYTES, "a");

    assertThat(body.getBytes(StandardCharsets.UTF_8)).hasSize(262_144);
    assertThat(parser.parse(body)).isEqualTo(new ValidOrder(CONTRACT_ORDER));
  }

  @Test
  void bodyOverTheSqsLimitIsRejected() {
    assertThat(parser.parse(paddedTo(SqsLimits.MAX_MESSAGE_BYTES + 1, "a")))
        .isEqualTo(
            new InvalidOrder(null, "body is larger than 262144 bytes (the SQS limit of 256 KiB)"));
  }

  @Test
  void sqsLimitCountsUtf8BytesNotCharacters() {
    String body = paddedTo(SqsLimits.MAX_MESSAGE_BYTES + 2, "é");

    assertThat(body.length()).isLessThan(SqsLimits.MAX_MESSAGE_BYTES);
    assertThat(parser.parse(body))
        .isEqualTo(
            new InvalidOrder(null, "body is larger than 262144 bytes (the SQS limit of 256 KiB)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void brokenOrderIdIsRejectedWithoutAnOrderIdToLog(
      String description, Consumer<ObjectNode> change, String reason) {
    assertThat(parser.parse(changed(change))).isEqualTo(new InvalidOrder(null, reason));
  }

  static Stream<Arguments> brokenOrderIdIsRejectedWithoutAnOrderIdToLog() {
    String rule = "order_id must be a string of 1 to 64 characters from A-Z a-z 0-9 _ -";
    return Stream.of(
        broken("order_id absent", m -> m.remove("order_id"), "order_id is required"),
        broken("order_id null", m -> m.putNull("order_id"), "order_id is required"),
        broken("order_id a number", m -> m.put("order_id", 123), rule),
        broken("order_id empty", m -> m.put("order_id", ""), rule),
        broken("order_id of 65 characters", m -> m.put("order_id", "A".repeat(65)), rule),
        broken("order_id with a space", m -> m.put("order_id", "ORD 1"), rule),
        broken("order_id with a slash", m -> m.put("order_id", "ORD/1"), rule),
        broken("order_id with a non-ASCII letter", m -> m.put("order_id", "ORDÉ1"), rule),
        broken("order_id with a trailing newline", m -> m.put("order_id", "ORD-1\n"), rule));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void brokenFieldIsRejectedNamingItsPathAndRule(
      String description, Consumer<ObjectNode> change, String reason) {
    assertThat(parser.parse(changed(change)))
        .isEqualTo(new InvalidOrder("ORD-2026-000123", reason));
  }

  static Stream<Arguments> brokenFieldIsRejectedNamingItsPathAndRule() {
    String placedAt = "placed_at must be an ISO-8601 instant string such as 2026-11-20T14:03:11Z";
    String service = "service must be \"standard\" or \"express\"";
    String country = "ship_to.country must be an ISO 3166-1 alpha-2 code (two upper-case letters)";
    String line2 = "ship_to.line2 must be null or a string of at most 200 characters";
    String parcels = "parcels must be an array of 1 to 50 entries";
    return Stream.of(
        broken("placed_at absent", m -> m.remove("placed_at"), "placed_at is required"),
        broken("placed_at null", m -> m.putNull("placed_at"), "placed_at is required"),
        broken("placed_at not a date", m -> m.put("placed_at", "yesterday"), placedAt),
        broken("placed_at without zone", m -> m.put("placed_at", "2026-11-20T14:03:11"), placedAt),
        broken("placed_at a date only", m -> m.put("placed_at", "2026-11-20"), placedAt),
        broken("placed_at epoch seconds", m -> m.put("placed_at", 1_795_183_391), placedAt),
        broken("service absent", m -> m.remove("service"), "service is required"),
        broken("service unknown", m -> m.put("service", "overnight"), service),
        broken("service upper-case", m -> m.put("service", "STANDARD"), service),
        broken("service a number", m -> m.put("service", 1), service),
        broken("ship_to absent", m -> m.remove("ship_to"), "ship_to is required"),
        broken("ship_to null", m -> m.putNull("ship_to"), "ship_to is required"),
        broken("ship_to a string", m -> m.put("ship_to", "London"), "ship_to must be an object"),
        broken("ship_to an array", m -> m.putArray("ship_to"), "ship_to must be an object"),
        broken("line2 a number", m -> shipTo(m).put("line2", 3), line2),
        broken("line2 of 201 characters", m -> shipTo(m).put("line2", "x".repeat(201)), line2),
        broken("country absent", m -> shipTo(m).remove("country"), "ship_to.country is required"),
        broken("country lower-case", m -> shipTo(m).put("country", "gb"), country),
        broken("country alpha-3", m -> shipTo(m).put("country", "GBR"), country),
        broken("country with a digit", m -> shipTo(m).put("country", "G1"), country),
        broken("country a number", m -> shipTo(m).put("country", 44), country),
        broken("parcels absent", m -> m.remove("parcels"), "parcels is required"),
        broken("parcels null", m -> m.putNull("parcels"), "parcels is required"),
        broken("parcels empty", m -> m.putArray("parcels"), parcels),
        broken("51 parcels", m -> parcels(m, 51), parcels),
        broken("parcels an object", m -> m.putObject("parcels").put("weight_grams", 1200), parcels),
        broken("parcel a number", m -> m.putArray("parcels").add(1200), "parcels[0] must be an object"),
        broken("parcel null", m -> m.putArray("parcels").addNull(), "parcels[0] must be an object"),
        broken(
            "weight_grams absent",
            m -> parcel(m, 0).remove("weight_grams"),
            "parcels[0].weight_grams is required"),
        weight("weight_grams zero", 0),
        weight("weight_grams negative", -5),
        weight("weight_grams of 70001", 70_001),
        weight("weight_grams a fraction", 1200.5),
        weight("weight_grams a whole float", 1200.0),
        weight("weight_grams a string", "1200"),
        weight("weight_grams beyond int", new BigInteger("100000000000000000000")),
        broken(
            "weight_grams broken in the third parcel",
            m -> {
              parcels(m, 3);
              parcel(m, 2).put("weight_grams", 0);
            },
            "parcels[2].weight_grams " + WEIGHT_RULE));
  }

  @ParameterizedTest(name = "ship_to.{0} {1}")
  @MethodSource
  void addressFieldMustBeANonBlankStringOfAtMost200Characters(
      String field, String description, Object value, String reason) {
    String body = changed(m -> shipTo(m).set(field, MAPPER.valueToTree(value)));

    assertThat(parser.parse(body)).isEqualTo(new InvalidOrder("ORD-2026-000123", reason));
  }

  static Stream<Arguments> addressFieldMustBeANonBlankStringOfAtMost200Characters() {
    return Stream.of("name", "line1", "city", "postcode")
        .flatMap(
            field ->
                Stream.of(
                    arguments(field, "null", null, "ship_to." + field + " is required"),
                    arguments(field, "empty", "", "ship_to." + field + " " + ADDRESS_RULE),
                    arguments(field, "blank", " \t ", "ship_to." + field + " " + ADDRESS_RULE),
                    arguments(
                        field, "of 201 characters", "x".repeat(201), "ship_to." + field + " " + ADDRESS_RULE),
                    arguments(field, "a number", 12, "ship_to." + field + " " + ADDRESS_RULE),
                    arguments(
                        field, "an array", List.of("12"), "ship_to." + field + " " + ADDRESS_RULE)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"name", "line1", "city", "postcode"})
  void absentAddressFieldIsRequired(String field) {
    assertThat(parser.parse(changed(m -> shipTo(m).remove(field))))
        .isEqualTo(new InvalidOrder("ORD-2026-000123", "ship_to." + field + " is required"));
  }

  @Test
  void everyBrokenRuleOfAMessageIsReportedAtOnce() {
    String body =
        changed(
            m -> {
              m.put("order_id", 123);
              m.remove("placed_at");
              m.put("service", "overnight");
              shipTo(m).put("name", " ");
              shipTo(m).put("postcode", "SW1Y 4JH".repeat(30));
              shipTo(m).put("country", "gb");
              parcels(m, 2);
              parcel(m, 0).put("weight_grams", "1200");
              parcel(m, 1).put("weight_grams", 1200.5);
            });

    assertThat(parser.parse(body))
        .isEqualTo(
            new InvalidOrder(
                null,
                "order_id must be a string of 1 to 64 characters from A-Z a-z 0-9 _ -; "
                    + "placed_at is required; "
                    + "service must be \"standard\" or \"express\"; "
                    + "ship_to.name must be a non-blank string of at most 200 characters; "
                    + "ship_to.postcode must be a non-blank string of at most 200 characters; "
                    + "ship_to.country must be an ISO 3166-1 alpha-2 code (two upper-case letters); "
                    + "parcels[0].weight_grams must be an integer from 1 to 70000; "
                    + "parcels[1].weight_grams must be an integer from 1 to 70000"));
  }

  @Test
  void reasonNeverRepeatsTheAddress() {
    String brokenAddress =
        changed(
            m -> {
              shipTo(m).put("name", "Ada Lovelace".repeat(20));
              shipTo(m).put("line2", "Flat 3".repeat(40));
              shipTo(m).put("postcode", "SW1Y 4JH".repeat(30));
              shipTo(m).put("country", "England");
              m.put("service", "Ada Lovelace");
            });
    String addressInMalformedJson =
        "{\"order_id\": \"ORD-1\", \"ship_to\": {\"name\": Ada Lovelace, \"city\": \"London\"}}";

    for (String body : List.of(brokenAddress, addressInMalformedJson)) {
      ParsedOrder parsed = parser.parse(body);
      assertThat(parsed).isInstanceOf(InvalidOrder.class);
      assertThat(((InvalidOrder) parsed).reason())
          .doesNotContain("Ada", "Lovelace", "Flat", "SW1Y", "James", "London", "England");
    }
  }

  private static Arguments edge(String description, Consumer<ObjectNode> change) {
    return arguments(description, change);
  }

  private static Arguments broken(String description, Consumer<ObjectNode> change, String reason) {
    return arguments(description, change, reason);
  }

  private static Arguments weight(String description, Object grams) {
    return broken(
        description,
        m -> parcel(m, 0).set("weight_grams", MAPPER.valueToTree(grams)),
        "parcels[0].weight_grams " + WEIGHT_RULE);
  }

  /** The contract example with one change applied, as a body. */
  private static String changed(Consumer<ObjectNode> change) {
    try {
      ObjectNode message = (ObjectNode) MAPPER.readTree(CONTRACT_EXAMPLE);
      change.accept(message);
      return MAPPER.writeValueAsString(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The contract example grown, by an unknown field of {@code unit}s, to exactly {@code bytes}. */
  private static String paddedTo(int bytes, String unit) {
    String empty = changed(m -> m.put("padding", ""));
    int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
    int missing = bytes - empty.getBytes(StandardCharsets.UTF_8).length;
    String padding = unit.repeat(missing / unitBytes) + "a".repeat(missing % unitBytes);
    return changed(m -> m.put("padding", padding));
  }

  private static ObjectNode shipTo(ObjectNode message) {
    return (ObjectNode) message.get("ship_to");
  }

  private static ObjectNode parcel(ObjectNode message, int index) {
    return (ObjectNode) message.get("parcels").get(index);
  }

  /** Replaces the parcels with {@code count} valid ones. */
  private static void parcels(ObjectNode message, int count) {
    ArrayNode parcels = message.putArray("parcels");
    for (int i = 0; i < count; i++) {
      parcels.addObject().put("weight_grams", 1000 + i);
    }
  }
}
