#include "bowstring/table/schema.h"
#include "bowstring/table/schema_hash.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using testing::error_message;

using ::testing::HasSubstr;

SchemaPtr abc_schema() {
  return schema({field("a", int64()), field("b", utf8(), false), field("c", list(float64()))});
}

TEST(Schema, Fields) {
  const SchemaPtr s = abc_schema();
  EXPECT_EQ(s->num_fields(), 3);
  EXPECT_EQ(s->field(1)->name(), "b");
  EXPECT_EQ(s->field("c")->type()->to_string(), "list<item: double>");
  EXPECT_EQ(s->field_index("a"), 0);
  EXPECT_EQ(s->field_index("c"), 2);
  EXPECT_TRUE(s->contains("b"));
  EXPECT_FALSE(s->contains("B"));
  EXPECT_EQ(s->field_names(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Schema, HashFollowsEqualsWithoutMetadata) {
  EXPECT_EQ(hash_schema(*abc_schema()), hash_schema(*abc_schema()));
  EXPECT_EQ(hash_schema(*abc_schema()), hash_schema(*abc_schema()->with_metadata({{"k", "v"}})));
  EXPECT_NE(hash_schema(*abc_schema()), hash_schema(*abc_schema()->remove_field(2)));
  EXPECT_NE(hash_schema(*abc_schema()),
            hash_schema(*abc_schema()->set_field(0, field("z", int64()))));
  EXPECT_NE(hash_schema(*schema({field("a", int8()), field("b", int8())})),
            hash_schema(*schema({field("b", int8()), field("a", int8())})));
}

TEST(Schema, EmptySchema) {
  const SchemaPtr s = schema({});
  EXPECT_EQ(s->num_fields(), 0);
  EXPECT_EQ(s->to_string(), "");
  EXPECT_EQ(error_message<InvalidArgument>([&] { s->field_index("x"); }),
            "no field named 'x' in the schema; fields are none");
}

TEST(Schema, BadIndexNamesTheFields) {
  const SchemaPtr s = abc_schema();
  EXPECT_EQ(error_message<IndexError>([&] { s->field(3); }),
            "field index 3 is outside a schema of 3 fields ('a', 'b', 'c')");
  EXPECT_THROW(s->field(-1), IndexError);
}

TEST(Schema, LookupIsExactAndListsTheNames) {
  const SchemaPtr s = abc_schema();
  EXPECT_EQ(error_message<InvalidArgument>([&] { s->field_index("A"); }),
            "no field named 'A' in the schema; fields are 'a', 'b', 'c'");
  EXPECT_THROW(s->field("missing"), InvalidArgument);
}

TEST(Schema, DuplicateNamesAreAllowedButAmbiguousToLookUp) {
  const SchemaPtr s = schema({field("x", int8()), field("y", int8()), field("x", utf8())});
  EXPECT_EQ(s->num_fields(), 3);
  EXPECT_EQ(s->field_indices("x"), (std::vector<int>{0, 2}));
  EXPECT_EQ(s->field_indices("z"), std::vector<int>{});
  EXPECT_EQ(s->field_index("y"), 1);
  EXPECT_EQ(error_message<InvalidArgument>([&] { s->field_index("x"); }),
            "field name 'x' is ambiguous: the schema has several fields of that name (at 0, 2)");
}

TEST(Schema, NullFieldIsRejected) {
  EXPECT_EQ(error_message<InvalidArgument>([] {
              Schema({field("a", int8()), nullptr});
            }),
            "schema field 1 is null");
}

TEST(Schema, LongNameListsAreCut) {
  FieldVector fields;
  for (int i = 0; i < 60; ++i) {
    std::string name = "f";
    name += std::to_string(i);
    fields.push_back(field(std::move(name), int8()));
  }
  const std::string names = Schema(fields).describe_names();
  EXPECT_THAT(names, HasSubstr("'f49' and 10 more"));
  EXPECT_THAT(names, ::testing::Not(HasSubstr("'f50'")));
}

TEST(Schema, ToString) {
  EXPECT_EQ(abc_schema()->to_string(),
            "a: int64\n"
            "b: string not null\n"
            "c: list<item: double>");
  EXPECT_EQ(abc_schema()->with_metadata({{"origin", "test"}, {"k", "v"}})->to_string(),
            "a: int64\n"
            "b: string not null\n"
            "c: list<item: double>\n"
            "-- metadata --\n"
            "origin: test\n"
            "k: v");
}

TEST(Schema, Equals) {
  const SchemaPtr s = abc_schema();
  EXPECT_TRUE(s->equals(*abc_schema()));
  const SchemaPtr with_metadata = s->with_metadata({{"k", "v"}});
  EXPECT_TRUE(s->equals(*with_metadata));
  EXPECT_FALSE(s->equals(*with_metadata, /*check_metadata=*/true));
  EXPECT_FALSE(s->equals(*s->set_field(1, field("b", utf8()))));  // nullability differs
  EXPECT_FALSE(s->equals(*s->set_field(0, field("z", int64()))));
  EXPECT_FALSE(s->equals(*s->remove_field(2)));
  const SchemaPtr field_metadata = s->set_field(0, s->field(0)->with_metadata({{"a", "b"}}));
  EXPECT_TRUE(s->equals(*field_metadata));
  EXPECT_FALSE(s->equals(*field_metadata, /*check_metadata=*/true));
}

TEST(Schema, AddRemoveAndSetReturnNewSchemas) {
  const SchemaPtr s = abc_schema()->with_metadata({{"k", "v"}});
  const SchemaPtr added = s->add_field(1, field("new", boolean()));
  EXPECT_EQ(added->field_names(), (std::vector<std::string>{"a", "new", "b", "c"}));
  EXPECT_EQ(added->metadata(), s->metadata());
  EXPECT_EQ(s->add_field(3, field("last", boolean()))->field(3)->name(), "last");
  EXPECT_EQ(s->remove_field(0)->field_names(), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(s->set_field(2, field("c2", int8()))->field_index("c2"), 2);
  EXPECT_EQ(s->num_fields(), 3);  // the original is unchanged
  EXPECT_EQ(error_message<IndexError>([&] { s->add_field(5, field("x", int8())); }),
            "cannot add a field at index 5 of a schema of 3 fields");
  EXPECT_THROW(s->remove_field(3), IndexError);
  EXPECT_THROW(s->set_field(-1, field("x", int8())), IndexError);
}

}  // namespace
}  // namespace bowstring
