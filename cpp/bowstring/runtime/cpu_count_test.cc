#include "bowstring/runtime/cpu_count.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <string>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

TEST(CgroupV2CpuMax, QuotaOverPeriodRoundedUp) {
  EXPECT_EQ(parse_cgroup_v2_cpu_max("150000 100000\n"), 2);
  EXPECT_EQ(parse_cgroup_v2_cpu_max("100000 100000\n"), 1);
  EXPECT_EQ(parse_cgroup_v2_cpu_max("400000 100000"), 4);
  EXPECT_EQ(parse_cgroup_v2_cpu_max("20000 100000\n"), 1);
}

TEST(CgroupV2CpuMax, MaxAndMalformedTextsAreNoLimit) {
  EXPECT_EQ(parse_cgroup_v2_cpu_max("max 100000\n"), std::nullopt);
  for (const char* text : {"", "\n", "100000", "abc 100000", "100000 0", "-5 100000",
                           "100000 100000 7", "1e5 100000"}) {
    EXPECT_EQ(parse_cgroup_v2_cpu_max(text), std::nullopt) << text;
  }
}

TEST(CgroupV1CpuQuota, MinusOneIsNoLimit) {
  EXPECT_EQ(parse_cgroup_v1_cpu_quota("-1\n", "100000\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_v1_cpu_quota("250000\n", "100000\n"), 3);
  EXPECT_EQ(parse_cgroup_v1_cpu_quota("50000\n", "100000\n"), 1);
  EXPECT_EQ(parse_cgroup_v1_cpu_quota("many", "100000"), std::nullopt);
  EXPECT_EQ(parse_cgroup_v1_cpu_quota("100000", ""), std::nullopt);
}

TEST(ProcSelfCgroup, FindsTheUnifiedAndTheCpuControllerPaths) {
  const CgroupPaths hybrid = parse_proc_self_cgroup(
      "9:name=systemd:/\n4:memory:/jobs/7\n2:cpuacct:/\n1:cpu,cpuacct:/docker/abc\n0::/\n");
  EXPECT_EQ(hybrid.v2, "/");
  EXPECT_EQ(hybrid.v1_cpu, "/docker/abc");

  const CgroupPaths unified = parse_proc_self_cgroup("0::/user.slice/app:1.scope\n");
  EXPECT_EQ(unified.v2, "/user.slice/app:1.scope");
  EXPECT_EQ(unified.v1_cpu, std::nullopt);

  const CgroupPaths none = parse_proc_self_cgroup("garbage\n3:cpuset:/x\n");
  EXPECT_EQ(none.v2, std::nullopt);
  EXPECT_EQ(none.v1_cpu, std::nullopt);
}

TEST(Mountinfo, FindsTheCgroupMounts) {
  const CgroupMounts mounts = parse_mountinfo(
      "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
      "30 25 0:26 / /sys/fs/cgroup/unified rw,nosuid shared:10 - cgroup2 cgroup2 rw\n"
      "31 25 0:27 / /sys/fs/cgroup/cpuacct rw shared:11 - cgroup cgroup rw,cpuacct\n"
      "32 25 0:28 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
  ASSERT_TRUE(mounts.v2.has_value());
  EXPECT_EQ(mounts.v2->root, "/");
  EXPECT_EQ(mounts.v2->mount_point, "/sys/fs/cgroup/unified");
  ASSERT_TRUE(mounts.v1_cpu.has_value());
  EXPECT_EQ(mounts.v1_cpu->root, "/docker/abc");
  EXPECT_EQ(mounts.v1_cpu->mount_point, "/sys/fs/cgroup/cpu,cpuacct");

  const CgroupMounts none = parse_mountinfo("22 1 0:21 / /proc rw - proc proc rw\nbroken\n");
  EXPECT_FALSE(none.v2.has_value());
  EXPECT_FALSE(none.v1_cpu.has_value());
}

/// A file system of a few files, for `cgroup_cpu_limit`.
FileReader files(std::map<std::string, std::string> contents) {
  return [contents = std::move(contents)](const std::string& path) -> std::optional<std::string> {
    const auto found = contents.find(path);
    if (found == contents.end()) {
      return std::nullopt;
    }
    return found->second;
  };
}

constexpr const char* kUnifiedMount =
    "30 25 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

TEST(CgroupCpuLimit, AnAncestorsQuotaLimitsItsChildren) {
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/jobs/seven\n"},
                                    {"/proc/self/mountinfo", kUnifiedMount},
                                    {"/sys/fs/cgroup/jobs/seven/cpu.max", "max 100000\n"},
                                    {"/sys/fs/cgroup/jobs/cpu.max", "300000 100000\n"}})),
            3);
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/jobs/seven\n"},
                                    {"/proc/self/mountinfo", kUnifiedMount},
                                    {"/sys/fs/cgroup/jobs/seven/cpu.max", "150000 100000\n"},
                                    {"/sys/fs/cgroup/jobs/cpu.max", "300000 100000\n"}})),
            2);
}

TEST(CgroupCpuLimit, NoQuotaFilesOrMaxMeanNoLimit) {
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/jobs/seven\n"},
                                    {"/proc/self/mountinfo", kUnifiedMount}})),
            std::nullopt);
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/\n"},
                                    {"/proc/self/mountinfo", kUnifiedMount},
                                    {"/sys/fs/cgroup/cpu.max", "max 100000\n"}})),
            std::nullopt);
  EXPECT_EQ(cgroup_cpu_limit(files({})), std::nullopt);
}

TEST(CgroupCpuLimit, AContainersOwnCgroupIsItsMountPoint) {
  // Without a cgroup namespace the path names the host's hierarchy; the mount's root says
  // which part of it the container sees.
  const std::string mountinfo =
      "30 25 0:26 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n";
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/kubepods/pod1\n"},
                                    {"/proc/self/mountinfo", mountinfo},
                                    {"/sys/fs/cgroup/cpu.max", "250000 100000\n"}})),
            3);
  // A path outside the mount's root: only the mount point's own quota can be read.
  EXPECT_EQ(cgroup_cpu_limit(files({{"/proc/self/cgroup", "0::/elsewhere/x\n"},
                                    {"/proc/self/mountinfo", mountinfo},
                                    {"/sys/fs/cgroup/cpu.max", "100000 100000\n"}})),
            1);
}

TEST(CgroupCpuLimit, ReadsCgroupV1AndTakesTheTighterOfBoth) {
  const std::string mountinfo =
      std::string(kUnifiedMount) +
      "32 25 0:28 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
  const std::string cgroup = "1:cpu,cpuacct:/batch\n0::/batch\n";
  EXPECT_EQ(
      cgroup_cpu_limit(files({{"/proc/self/cgroup", cgroup},
                              {"/proc/self/mountinfo", mountinfo},
                              {"/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us", "150000\n"},
                              {"/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_period_us", "100000\n"}})),
      2);
  EXPECT_EQ(
      cgroup_cpu_limit(files({{"/proc/self/cgroup", cgroup},
                              {"/proc/self/mountinfo", mountinfo},
                              {"/sys/fs/cgroup/batch/cpu.max", "100000 100000\n"},
                              {"/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us", "-1\n"},
                              {"/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_period_us", "100000\n"}})),
      1);
}

TEST(ThreadsVariable, UnsetOrEmptyMeansDefault) {
  EXPECT_EQ(parse_threads_variable(nullptr), std::nullopt);
  EXPECT_EQ(parse_threads_variable(""), std::nullopt);
  EXPECT_EQ(parse_threads_variable("3"), 3);
  EXPECT_EQ(parse_threads_variable(" 12\n"), 12);
}

TEST(ThreadsVariable, ABadValueIsAnErrorNamingIt) {
  for (const char* value : {"0", "-2", "three", "3x", "1.5", "99999"}) {
    try {
      parse_threads_variable(value);
      ADD_FAILURE() << "accepted " << value;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("BOWSTRING_THREADS"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string("'") + value + "'"), std::string::npos)
          << e.what();
    }
  }
}

TEST(AvailableCpus, FollowsTheAffinityMask) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  EXPECT_EQ(affinity_cpu_count(), CPU_COUNT(&mask));
  EXPECT_GE(available_cpu_count(), 1);
  EXPECT_LE(available_cpu_count(), affinity_cpu_count());

  // Restricted to one CPU (in a child, so this process keeps its mask), one CPU is counted.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int first = 0;
    while (!CPU_ISSET(first, &mask)) {
      ++first;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    const bool ok = sched_setaffinity(0, sizeof(one), &one) == 0 && affinity_cpu_count() == 1 &&
                    available_cpu_count() == 1;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
}  // namespace bowstring
