package org.zstack.aio.test.ui;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.zstack.aio.test.support.RealComponents;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;

/**
 * A real headless Debian Chromium driven through chromedriver, pointed at the UI of a running server. Missing
 * Chromium skips locally and fails under CI=true.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    final ChromeDriver driver;
    private final String base;
    private final Path profile;

    private Browser(ChromeDriver driver, String base, Path profile) {
        this.driver = driver;
        this.base = base;
        this.profile = profile;
    }

    /** Skips (or fails under CI=true) when Chromium or chromedriver is missing. */
    static void requireChromium() {
        RealComponents.require(Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(CHROMEDRIVER)),
                "Chromium (" + CHROMIUM + ") and chromedriver (" + CHROMEDRIVER + ")",
                "run bin/lib/setup-chromium.sh as root (apt-get install chromium chromium-driver)");
    }

    static Browser open(String base) throws IOException {
        requireChromium();
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        Path profile = Files.createTempDirectory("aio-ui-chromium");
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM);
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,800", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build();
        ChromeDriver d = new ChromeDriver(service, o);
        d.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new Browser(d, base, profile);
    }

    void go(String hash) {
        driver.get(base + "/" + hash);
    }

    /** Sets the viewport (not the outer window) to width x height. */
    void viewport(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
        long w = ((Number) js("return window.innerWidth")).longValue();
        long h = ((Number) js("return window.innerHeight")).longValue();
        driver.manage().window().setSize(new Dimension((int) (width + (width - w)), (int) (height + (height - h))));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    <T> T waitFor(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    WebElement visible(String css) {
        return waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    boolean shown(String css) {
        return all(css).stream().anyMatch(WebElement::isDisplayed);
    }

    String text(String css) {
        return visible(css).getText();
    }

    /** Waits until the current page finished loading its data. */
    void settled() {
        waitFor(d -> "false".equals(d.findElement(By.id("page-body")).getDomAttribute("aria-busy"))
                     || d.findElement(By.id("login-page")).isDisplayed());
    }

    void login(String name, String password) {
        go("");
        visible("#login-name").clear();
        driver.findElement(By.id("login-name")).sendKeys(name);
        driver.findElement(By.id("login-password")).sendKeys(password);
        driver.findElement(By.id("login-submit")).click();
        visible("#nav");
        settled();
    }

    void logout() {
        visible("#logout").click();
        visible("#login-form");
    }

    /** Navigates with the nav links (as a user would) and waits for the page's data. */
    void page(String name) {
        visible("#nav a[data-page='" + name + "']").click();
        waitFor(d -> name.equals(d.findElement(By.tagName("body")).getDomAttribute("data-page")));
        settled();
    }

    Select select(String css) {
        return new Select(visible(css));
    }

    void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        File f = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The whole page, not just the viewport: the window grows to the document's height for the shot. */
    void fullScreenshot(String name) throws IOException {
        Dimension before = driver.manage().window().getSize();
        long height = ((Number) js("return Math.max(document.documentElement.scrollHeight, window.innerHeight)")).longValue();
        long chrome = before.getHeight() - ((Number) js("return window.innerHeight")).longValue();
        driver.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(height + chrome, 6000)));
        try {
            screenshot(name);
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> s = Files.walk(profile)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp dir left behind
            }
        }
    }
}
