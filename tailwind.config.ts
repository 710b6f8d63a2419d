import type { Config } from 'tailwindcss';

/**
 * Theme tokens shared by every page. Tailwind 4 reads this file through the
 * `@config` line in src/styles/global.css.
 */
export default {
  content: ['./src/**/*.{astro,ts,tsx,mdx}', './content/**/*.mdx'],
  darkMode: 'class',
  theme: {
    screens: {
      xs: '320px',
      sm: '640px',
      md: '768px',
      lg: '1024px',
      xl: '1280px',
      xxl: '1536px',
      // The layout switches between the mobile and desktop header/menu here (spec §2.2, §9).
      desk: '1000px',
    },
    extend: {
      colors: {
        primary: {
          DEFAULT: '#39c5bb',
          50: '#effcfa',
          100: '#d6f6f2',
          200: '#aeece5',
          300: '#7edfd6',
          400: '#52d0c6',
          500: '#39c5bb',
          600: '#2aa39b',
          700: '#26827c',
          800: '#236764',
          900: '#205654',
        },
      },
      fontFamily: {
        sans: [
          '"Noto Sans CJK SC"',
          '"PingFang SC"',
          '"Hiragino Sans GB"',
          '"Microsoft YaHei"',
          'system-ui',
          'sans-serif',
        ],
      },
    },
  },
} satisfies Config;
