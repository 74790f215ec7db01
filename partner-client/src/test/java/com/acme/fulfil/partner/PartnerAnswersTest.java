package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/partner-api.md's table, row by row: what each answer to a POST or a GET means for the try. */
class PartnerAnswersTest {
  private static final String ORDER = "ORD-1";
  private static final String BOOKING = "{\"shipment_id\":\"SHP-1\",\"order_id\":\"ORD-1\",\"courier\":\"DPD\","
      + "\"tracking_number\":\"T1\",\"label_url\":\"https://l/1.pdf\"}";
  private final PartnerAnswers answers = new PartnerAnswers(new ObjectMapper());

  @ParameterizedTest(name = "POST {0} [{1}] -> {2}")
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "201 | BOOKING | booked",
      "201 | ''  | unknown",
      "201 | null | unknown",
      "201 | {} | unknown",
      "201 | {\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"} | unknown",
      "201 | {\"shipment_id\":\"SHP-1\",\"order_id\":\"ORD-1\",\"courier\":[]} | unknown",
      "201 | <html>ok</html> | unknown",
      "201 | BOOKING} | unknown",
      "400 | {\"error\":\"invalid_request\",\"message\":\"m\"} | permanent",
      "422 | {\"error\":\"address_rejected\",\"message\":\"m\"} | permanent",
      "422 | {\"error\":\"unsupported_destination\"} | permanent",
      "400 | <html>Bad Request</html> | unknown",
      "422 | ''  | unknown",
      "400 | {\"error\":\"Bad Request\"} | unknown",
      "400 | {\"error\":\"address_rejected\"} | unknown",
      "422 | {\"error\":\"invalid_request\"} | unknown",
      "422 | {\"error\":\"Unprocessable Entity\",\"status\":422} | unknown",
      "413 | ''  | unknown",
      "413 | {\"error\":\"payload_too_large\"} | unknown",
      "415 | ''  | unknown",
      "401 | {\"error\":\"invalid_api_key\"} | transient",
      "401 | {\"error\":\"invalid_api_key\",\"message\":\"m\"} | transient",
      "401 | ''  | unknown",
      "401 | {\"message\":\"Unauthorized\"} | unknown",
      "429 | {\"error\":\"rate_limited\"} | transient",
      "429 | ''  | unknown",
      "429 | <html>Too Many Requests</html> | unknown",
      "429 | {\"error\":\"too_many_requests\"} | unknown",
      "429 | {\"error\":\"rate_limited\"} x | unknown",
      "500 | {\"error\":\"internal\"} | unknown",
      "502 | ''  | unknown",
      "503 | {\"error\":\"unavailable\"} | unknown",
      "504 | <html>Gateway Timeout</html> | unknown",
      "501 | ''  | unknown",
      "301 | ''  | unknown",
      "404 | ''  | unknown",
      "409 | ''  | unknown",
      "418 | ''  | unknown",
      "200 | BOOKING | unknown"})
  void bookingAnswer(int status, String body, String meaning) {
    String answer = body.replace("BOOKING", BOOKING);
    switch (meaning) {
      case "booked" -> assertThat(answers.booking(ORDER, status, answer, null).shipmentId()).isEqualTo("SHP-1");
      case "permanent" -> assertThatThrownBy(() -> answers.booking(ORDER, status, answer, null))
          .isInstanceOfSatisfying(PartnerRejectedException.class,
              e -> assertThat(e.notBooked()).as("the contract lists it as not booked").isPresent());
      case "transient" -> assertThatThrownBy(() -> answers.booking(ORDER, status, answer, "7"))
          .isInstanceOfSatisfying(PartnerUnavailableException.class,
              e -> assertThat(e.notBooked()).as("the contract lists it as not booked").isPresent());
      case "unknown" -> assertThatThrownBy(() -> answers.booking(ORDER, status, answer, null))
          .isInstanceOfSatisfying(PartnerOutcomeUnknownException.class,
              e -> assertThat(e.notBooked()).as("nothing proves it booked nothing").isEmpty());
      default -> throw new IllegalArgumentException(meaning);
    }
  }

  @ParameterizedTest(name = "GET {0} [{1}] -> {2}")
  @CsvSource(delimiter = '|', value = {
      "200 | {\"shipments\":[BOOKING]} | 1",
      "200 | {\"shipments\":[]} | 0",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"}]} | 0",
      "200 | {\"shipments\":[BOOKING,{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"},{}]} | 1",
      "200 | {\"shipments\":[BOOKING,BOOKING]} | 1",
      "200 | {\"shipments\":[{\"shipment_id\":42,\"order_id\":\"ORD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":null,\"order_id\":\"ORD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\" \",\"order_id\":\"ORD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"order_id\":\"ORD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-1\",\"order_id\":\"ORD-1\",\"courier\":{}}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"},{}]} | unreadable",
      "200 | {\"shipments\":[7]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"},{\"shipment_id\":9,\"order_id\":\"ORD-2\"}]} | 0",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ord-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-1 \"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\" ORD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"\u041eRD-1\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD\u20111\"}]} | unreadable",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"order_id\":\"ORD-2\"},{\"shipment_id\":\"SHP-8\",\"order_id\":\"Ord-1\"}]} | unreadable",
      "200 | {\"shipments\":[BOOKING],\"shipments\":[]} | transient",
      "200 | {\"shipments\":[{\"shipment_id\":\"SHP-9\",\"shipment_id\":\"SHP-1\",\"order_id\":\"ORD-1\"}]} | transient",
      "200 | {\"shipments\":null} | transient",
      "200 | [] | transient",
      "200 | {} | transient",
      "200 | {\"shipments\":[]}} | transient",
      "200 | {\"shipments\":[]} <html></html> | transient",
      "200 | <html></html> | transient",
      "400 | {\"error\":\"invalid_request\"} | transient",
      "422 | {\"error\":\"address_rejected\"} | transient",
      "401 | {\"error\":\"invalid_api_key\"} | transient",
      "429 | {\"error\":\"rate_limited\"} | transient",
      "500 | ''  | transient",
      "503 | ''  | transient",
      "404 | ''  | transient"})
  void lookupAnswer(int status, String body, String meaning) {
    String answer = body.replace("BOOKING", BOOKING);
    if (meaning.equals("transient")) {
      assertThatThrownBy(() -> answers.lookup(ORDER, status, answer)).isInstanceOf(PartnerUnavailableException.class);
    } else if (meaning.equals("unreadable")) {
      assertThatThrownBy(() -> answers.lookup(ORDER, status, answer)).isInstanceOf(UnreadableBookingException.class);
    } else {
      assertThat(answers.lookup(ORDER, status, answer)).hasSize(Integer.parseInt(meaning))
          .allSatisfy(shipment -> assertThat(shipment.orderId()).isEqualTo(ORDER));
    }
  }

  @Test
  void retryAfterIsReadAsTheContractsSecondsAndAnythingElseIsNoAnswer() {
    assertThat(PartnerAnswers.retryAfter(" 7 ")).contains(java.time.Duration.ofSeconds(7));
    assertThat(PartnerAnswers.retryAfter("0")).contains(java.time.Duration.ZERO);
    assertThat(PartnerAnswers.retryAfter("Wed, 25 Nov 2026 12:01:30 GMT")).isEmpty();
    assertThat(PartnerAnswers.retryAfter("-3")).isEmpty();
    assertThat(PartnerAnswers.retryAfter("soon")).isEmpty();
    assertThat(PartnerAnswers.retryAfter(null)).isEmpty();
  }
}
