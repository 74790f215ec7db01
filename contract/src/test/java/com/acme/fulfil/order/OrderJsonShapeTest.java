package com.acme.fulfil.order;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The partner request reuses these records, so their JSON must be the contracts' JSON. */
class OrderJsonShapeTest {
  private static final ShipTo ADA =
      new ShipTo("Ada Lovelace", "12 St James's Square", null, "London", "SW1Y 4JH", "GB");
  private static final String ADA_JSON =
      "{\"name\":\"Ada Lovelace\",\"line1\":\"12 St James's Square\",\"line2\":null,"
          + "\"city\":\"London\",\"postcode\":\"SW1Y 4JH\",\"country\":\"GB\"}";

  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void shipToIsWrittenWithTheContractNamesAndAnExplicitNullLine2() throws Exception {
    assertThat(mapper.writeValueAsString(ADA)).isEqualTo(ADA_JSON);
  }

  @Test
  void nullLine2IsWrittenEvenByAMapperThatDropsNulls() throws Exception {
    ObjectMapper droppingNulls =
        new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    assertThat(droppingNulls.writeValueAsString(ADA)).isEqualTo(ADA_JSON);
  }

  @Test
  void parcelIsWrittenAsWeightGrams() throws Exception {
    assertThat(mapper.writeValueAsString(new Parcel(1200))).isEqualTo("{\"weight_grams\":1200}");
  }

  @Test
  void serviceIsWrittenAsItsLowerCaseWord() throws Exception {
    assertThat(mapper.writeValueAsString(List.of(Service.STANDARD, Service.EXPRESS)))
        .isEqualTo("[\"standard\",\"express\"]");
  }

  @Test
  void orderMessageIsWrittenBackAsTheContractExample() throws Exception {
    JsonNode written = mapper.valueToTree(OrderParserTest.CONTRACT_ORDER);

    assertThat(written).isEqualTo(mapper.readTree(OrderParserTest.CONTRACT_EXAMPLE));
  }

  @Test
  void placedAtStaysAnIso8601StringWhenTheMapperKnowsJavaTime() throws Exception {
    // JavaTimeModule alone would write epoch seconds (1795183391.000000000).
    ObjectMapper withJavaTime = new ObjectMapper().findAndRegisterModules();
    OrderMessage order =
        new OrderMessage(
            "ORD-1", Instant.parse("2026-11-20T14:03:11.250Z"), Service.EXPRESS, ADA, List.of());

    assertThat(withJavaTime.getRegisteredModuleIds()).contains("jackson-datatype-jsr310");
    JsonNode written = withJavaTime.valueToTree(order);
    assertThat(written.get("placed_at").textValue())
        .isEqualTo("2026-11-20T14:03:11.250Z");
  }
}
