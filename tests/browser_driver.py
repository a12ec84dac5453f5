"""browser_driver.py - what the Selenium browser tests share
(browser_serve.py, browser_report.py): importing it exits 77 (ctest:
skipped) with the reason when Selenium, chromium or chromedriver is
missing; chrome() starts headless Chromium through Debian's chromedriver,
keeping the page's console messages (driver.get_log("browser")).
"""
import os
import shutil
import sys


def skip(why):
    print("SKIP: " + why + " (apt-get install chromium chromium-driver "
          "python3-selenium)")
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    skip("python3-selenium is not installed")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not CHROMIUM:
    skip("chromium is not installed")
if not os.path.exists(DRIVER):
    skip("chromedriver (chromium-driver) is not installed")


def chrome(profile, width=1300, height=1500):
    """Headless Chromium with its own profile directory."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height),
              "--user-data-dir=" + profile):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)
